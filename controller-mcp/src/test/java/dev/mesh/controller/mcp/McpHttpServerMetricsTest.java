package dev.mesh.controller.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Identity;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /metrics} beside {@code POST /mcp} (docs/operations.md): no token on loopback, the token on any
 * other address, {@code GET} and {@code HEAD} only, the body rendered once per request, a rendering that
 * fails a 500 without its cause, and no route at all when the server was started without metrics.
 */
class McpHttpServerMetricsTest {

    private static final String TYPE = "text/plain; version=0.0.4; charset=utf-8";
    private static final String BODY = "# TYPE mesh_test_total counter\nmesh_test_total 7\n";

    private final Fixtures fixtures = new Fixtures();
    private final BearerToken token = BearerToken.random();
    private final AtomicInteger renderings = new AtomicInteger();
    private final List<McpHttpServer> servers = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @AfterEach
    void stop() {
        servers.forEach(McpHttpServer::close);
        http.close();
    }

    @Test
    void get_onLoopback_needsNoToken_rendersOncePerRequest() throws Exception {
        McpHttpServer server = start(McpHttpServer.Config.loopback(0, token, "dev"), this::render);

        HttpResponse<String> first = send(server, "GET");
        HttpResponse<String> second = send(server, "GET");

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("Content-Type")).hasValue(TYPE);
        assertThat(first.body()).isEqualTo(BODY);
        assertThat(second.body()).isEqualTo(BODY);
        assertThat(renderings).hasValue(2);
    }

    @Test
    void head_answersTheHeadersAlone() throws Exception {
        McpHttpServer server = start(McpHttpServer.Config.loopback(0, token, "dev"), this::render);

        HttpResponse<String> response = send(server, "HEAD");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue(TYPE);
        assertThat(response.body()).isEmpty();
    }

    @Test
    void post_is405_namingTheMethodsAllowed() throws Exception {
        McpHttpServer server = start(McpHttpServer.Config.loopback(0, token, "dev"), this::render);

        HttpResponse<String> response = send(server, "POST");

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Allow")).hasValue("GET, HEAD");
        assertThat(renderings).hasValue(0);
    }

    @Test
    void aRenderingThatFails_is500_withoutItsCause() throws Exception {
        McpHttpServer server = start(McpHttpServer.Config.loopback(0, token, "dev"), () -> {
            throw new IllegalStateException("registry secret=hunter2 broke");
        });

        HttpResponse<String> response = send(server, "GET");

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.body()).contains("the metrics could not be rendered").doesNotContain("hunter2")
                .doesNotContain("IllegalStateException");
    }

    @Test
    void offLoopback_needsTheToken() throws Exception {
        McpHttpServer server = start(new McpHttpServer.Config(new InetSocketAddress(InetAddress.getByName("0.0.0.0"),
                0), true, token, "dev", McpHttpServer.Config.DEFAULT_MAX_CONCURRENT), this::render);

        HttpResponse<String> without = send(server, "GET");
        HttpResponse<String> wrong = send(server, "GET", "Authorization", "Bearer not-the-token");
        HttpResponse<String> with = send(server, "GET", "Authorization", token.header());

        assertThat(without.statusCode()).isEqualTo(401);
        assertThat(without.headers().firstValue("WWW-Authenticate")).isPresent();
        assertThat(without.body()).contains("off loopback the metrics need Authorization: Bearer <token>");
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(with.statusCode()).isEqualTo(200);
        assertThat(with.body()).isEqualTo(BODY);
        assertThat(renderings).as("rendered for the authorized request only").hasValue(1);
    }

    @Test
    void aForeignOrigin_is403() throws Exception {
        McpHttpServer server = start(McpHttpServer.Config.loopback(0, token, "dev"), this::render);

        HttpResponse<String> response = send(server, "GET", "Origin", "https://evil.example");

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(renderings).hasValue(0);
    }

    @Test
    void startedWithoutMetrics_hasNoMetricsRoute() throws Exception {
        McpHttpServer server = McpHttpServer.start(fixtures.dispatcher(Identity.ANYONE),
                McpHttpServer.Config.loopback(0, token, "dev"), Optional.empty());
        servers.add(server);

        HttpResponse<String> response = send(server, "GET");

        assertThat(response.statusCode()).isNotEqualTo(200);
        assertThat(response.body()).doesNotContain("mesh_test_total");
    }

    private byte[] render() {
        renderings.incrementAndGet();
        return BODY.getBytes(StandardCharsets.UTF_8);
    }

    private McpHttpServer start(McpHttpServer.Config config, Supplier<byte[]> body) {
        McpHttpServer server = McpHttpServer.start(fixtures.dispatcher(Identity.ANYONE), config,
                Optional.of(new McpHttpServer.Metrics(TYPE, body)));
        servers.add(server);
        return server;
    }

    /** A request to /metrics on the server's port, always over loopback. */
    private HttpResponse<String> send(McpHttpServer server, String method, String... headers)
            throws IOException, InterruptedException {
        URI metrics = URI.create("http://127.0.0.1:" + server.endpoint().getPort() + McpHttpServer.METRICS_PATH);
        HttpRequest.Builder request = HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(10))
                .method(method, method.equals("POST") ? HttpRequest.BodyPublishers.ofString("{}")
                        : HttpRequest.BodyPublishers.noBody());
        if (headers.length > 0) {
            request.headers(headers);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
