package dev.mesh.controller.bench;

import com.sun.net.httpserver.HttpServer;
import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.RequestRecords;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.mcp.Assembly;
import dev.mesh.controller.mcp.BearerToken;
import dev.mesh.controller.mcp.McpHttpServer;
import dev.mesh.controller.mcp.internal.ExchangeThreads;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A verb's round trip over MCP HTTP, beside an HTTP echo in the same process: one client
 * ({@link HttpClient}, HTTP/1.1, kept-alive connection) POSTs a {@code tools/call} to
 * {@link McpHttpServer} — the dispatcher, the bearer token check, the verb on the store of
 * {@link BenchStore} (10,000 nodes) — or the same bytes to a JDK {@link HttpServer} on loopback
 * that sends them back (the floor: the HTTP stack, the loopback and the same executor as the MCP
 * server's, nothing else), and reads the whole answer. Two forks per benchmark: the spread between
 * forks (thread placement on two cores) is larger than between iterations.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 5, time = 3)
@Measurement(iterations = 5, time = 3)
public class HttpBenchmark {

    private static final String STATUS = call("status");
    private static final String NODES = call("nodes");

    private BenchStore store;
    private Assembly assembly;
    private McpHttpServer mcp;
    private HttpServer echo;
    private HttpClient client;
    private BearerToken token;
    private URI echoUri;

    /** Loads the store, starts both servers and checks that each answers. */
    @Setup(Level.Trial)
    public void setUp() throws SQLException, IOException, InterruptedException {
        store = BenchStore.create(10_000);
        Lifecycle lifecycle = LocalLifecycle.active(store.lock(), "bench", Clock.systemUTC());
        // The controller's own assembly, on the benchmark's store.
        assembly = Assembly.of(new Verbs.Ports(store.inventory(), Licences.NONE, lifecycle, new MemoryEvents(),
                RequestRecords.NONE, Layout.DEFAULT, Clock.systemUTC()), Identity.ANYONE, "bench");
        token = BearerToken.random();
        mcp = assembly.serveHttp(McpHttpServer.Config.loopback(0, token, "bench"));
        echo = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        echo.createContext("/echo", exchange -> {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        // The executor McpHttpServer runs its exchanges on: a virtual thread each, with the same bounds.
        echo.setExecutor(new ExchangeThreads("echo-", 1_024, McpHttpServer.Config.DEFAULT_READ_TIMEOUT));
        echo.start();
        echoUri = URI.create("http://127.0.0.1:" + echo.getAddress().getPort() + "/echo");
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (String body : new String[] {STATUS, NODES}) {
            String answer = post(mcp.endpoint(), body);
            if (!answer.contains("\"isError\":false")) {
                throw new IllegalStateException("the verb failed: " + answer.substring(0, Math.min(400, answer.length())));
            }
        }
    }

    /** Stops the servers and drops the database. */
    @TearDown(Level.Trial)
    public void tearDown() throws SQLException {
        client.close();
        echo.stop(0);
        assembly.close();
        store.close();
    }

    /** @return the answer */
    @Benchmark
    public String status() throws IOException, InterruptedException {
        return post(mcp.endpoint(), STATUS);
    }

    /** @return the answer: the first page of the 10,000 nodes, 1,000 of them (the verb's page without a limit) */
    @Benchmark
    public String nodes() throws IOException, InterruptedException {
        return post(mcp.endpoint(), NODES);
    }

    /** @return the same bytes as {@link #status()} sent, back */
    @Benchmark
    public String echo() throws IOException, InterruptedException {
        return post(echoUri, STATUS);
    }

    private String post(URI uri, String body) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("Authorization", token.header())
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(uri + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    private static String call(String verb) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + verb
                + "\",\"arguments\":{}}}";
    }
}
