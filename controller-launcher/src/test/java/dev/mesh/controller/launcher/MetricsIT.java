package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.mcp.BearerToken;
import dev.mesh.controller.mcp.McpClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /metrics} of {@code serve --dev --log-format json} from the bundle, scraped over HTTP after
 * some verbs (one failing, one protocol error) and read by the Prometheus Python client's parser
 * ({@code src/test/python/metrics-to-json.py}), not by substrings; and its log, one JSON object per line.
 * One controller for the class: each start runs the embedded PostgreSQL.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MetricsIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** A key whose value is an argument: {@code key={}}. */
    private static final Pattern KEY = Pattern.compile(" ([A-Za-z]+)=\\{}");

    @TempDir
    static Path dir;

    private ServeProcess serve;
    private McpClient client;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    void start() {
        Path state = dir.resolve("state");
        serve = ServeProcess.start(state, dir, "--log-format", "json");
        client = McpClient.of(serve.endpoint(), BearerToken.read(state));
        client.callTool("status", JSON.createObjectNode());
        client.callTool("status", JSON.createObjectNode());
        client.callTool("nodes", JSON.createObjectNode());
        assertThatThrownBy(() -> client.callTool("node", JSON.createObjectNode().put("name", "nowhere")))
                .hasMessageContaining("nowhere");
        protocolError(state);
    }

    @AfterAll
    void stop() {
        if (client != null) {
            client.close();
        }
        if (serve != null) {
            serve.close();
        }
    }

    @Test
    void metrics_afterVerbs_countEachVerbByOutcome_inPrometheusTextFormat() throws Exception {
        HttpResponse<String> scraped = scrape();

        assertThat(scraped.statusCode()).isEqualTo(200);
        assertThat(scraped.headers().firstValue("Content-Type")).hasValueSatisfying(type ->
                assertThat(type).startsWith("text/plain; version=0.0.4"));
        List<Sample> samples = parse(scraped.body());
        assertThat(value(samples, "mesh_controller_verbs_total", Map.of("verb", "status", "outcome", "ok")))
                .isGreaterThanOrEqualTo(2);
        assertThat(value(samples, "mesh_controller_verbs_total", Map.of("verb", "nodes", "outcome", "ok")))
                .isEqualTo(1);
        assertThat(value(samples, "mesh_controller_verbs_total", Map.of("verb", "node", "outcome", "not-found")))
                .isEqualTo(1);
        assertThat(value(samples, "mesh_controller_verbs_total",
                Map.of("verb", "unknown", "outcome", "protocol-error"))).isEqualTo(1);
    }

    @Test
    void metrics_verbDuration_isAHistogram_whoseBucketsEndInItsCount() throws Exception {
        List<Sample> samples = parse(scrape().body());

        List<Sample> buckets = samples.stream().filter(s -> s.name().equals("mesh_controller_verb_duration_seconds_bucket")
                && "status".equals(s.labels().get("verb"))).toList();
        assertThat(buckets).hasSizeGreaterThan(2);
        assertThat(buckets).extracting(s -> s.labels().get("le")).contains("+Inf");
        double count = value(samples, "mesh_controller_verb_duration_seconds_count", Map.of("verb", "status"));
        assertThat(count).isGreaterThanOrEqualTo(2);
        assertThat(buckets.stream().filter(s -> s.labels().get("le").equals("+Inf")).findFirst().orElseThrow().value())
                .isEqualTo(count);
        assertThat(buckets).extracting(Sample::value).isSorted();
    }

    @Test
    void metrics_roleAndEpoch_areTheLifecycles() throws Exception {
        List<Sample> samples = parse(scrape().body());

        assertThat(value(samples, "mesh_controller_role", Map.of("role", "active"))).isEqualTo(1);
        assertThat(value(samples, "mesh_controller_role", Map.of("role", "standby"))).isZero();
        assertThat(value(samples, "mesh_controller_epoch", Map.of())).isEqualTo(serve.epoch());
        assertThat(value(samples, "mesh_controller_lock_wait_seconds", Map.of())).isGreaterThanOrEqualTo(0);
        assertThat(value(samples, "mesh_controller_deliveries_total", Map.of("result", "delivered"))).isZero();
    }

    @Test
    void metrics_onLoopback_needNoToken_andOnlyGet() throws Exception {
        HttpResponse<String> posted = http.send(HttpRequest.newBuilder(metricsUri())
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(posted.statusCode()).isEqualTo(405);
        assertThat(posted.headers().firstValue("Allow")).hasValue("GET, HEAD");
    }

    @Test
    void status_showsTheVerbsCalls_andHowTheLockWasTaken() {
        JsonNode status = client.callTool("status", JSON.createObjectNode());

        assertThat(status.at("/verbs/calls").asLong()).isGreaterThanOrEqualTo(4);
        assertThat(status.at("/verbs/failed").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(status.at("/handover/how").asString()).isIn("first", "planned", "crash");
        assertThat(status.at("/handover/lockWaitMs").isIntegralNumber()).isTrue();
    }

    @Test
    void log_inJson_isOneObjectPerLine_withTheEventsKeysAndValues() {
        List<String> lines = serve.err().lines().filter(line -> !line.isBlank()).toList();

        assertThat(lines).isNotEmpty();
        List<JsonNode> events = lines.stream().map(JSON::readTree).toList();
        JsonNode started = events.stream().filter(e -> e.path("message").asString().startsWith("controller started"))
                .findFirst().orElseThrow(() -> new AssertionError("no 'controller started' in " + lines));
        assertThat(started.path("level").asString()).isEqualTo("INFO");
        assertThat(started.path("message").asString()).startsWith("controller started mode=dev ");
        assertThat(keys(started.path("message").asString())).containsExactly("state", "url", "epoch");
        assertThat(started.path("arguments")).hasSize(3);
        assertThat(started.path("arguments").get(1).asString()).isEqualTo(serve.endpoint().toString());
        assertThat(started.path("arguments").get(2).asString()).isEqualTo(String.valueOf(serve.epoch()));
        assertThat(started.path("formattedMessage").asString()).contains("epoch=" + serve.epoch());
    }

    private static List<String> keys(String pattern) {
        List<String> keys = new ArrayList<>();
        Matcher matcher = KEY.matcher(pattern);
        while (matcher.find()) {
            keys.add(matcher.group(1));
        }
        return keys;
    }

    private void protocolError(Path state) {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"arguments\":{}}}";
        HttpResponse<String> answer;
        try {
            answer = http.send(HttpRequest.newBuilder(serve.endpoint())
                    .header("Authorization", BearerToken.read(state).header())
                    .header("Content-Type", "application/json").header("Accept", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        assertThat(JSON.readTree(answer.body()).at("/error/code").asInt()).isEqualTo(-32602);
    }

    private URI metricsUri() {
        return serve.endpoint().resolve("/metrics");
    }

    private HttpResponse<String> scrape() throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(metricsUri()).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** One sample as the parser read it. */
    private record Sample(String name, Map<String, String> labels, double value) {
    }

    /** Parses with the Prometheus Python client's parser (python3-prometheus-client; bin/services installs it). */
    private static List<Sample> parse(String text) throws IOException, InterruptedException {
        Process python = new ProcessBuilder("/usr/bin/python3", "src/test/python/metrics-to-json.py")
                .redirectErrorStream(false).start();
        try (var in = python.getOutputStream()) {
            in.write(text.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(python.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(python.waitFor(30, TimeUnit.SECONDS)).as("the parser ends").isTrue();
        assertThat(python.exitValue()).as("the parser read the metrics (install python3-prometheus-client with "
                + "bin/services if it is missing): " + err).isZero();
        List<Sample> samples = new ArrayList<>();
        for (JsonNode family : JSON.readTree(out)) {
            for (JsonNode sample : family.path("samples")) {
                Map<String, String> labels = new java.util.TreeMap<>();
                sample.path("labels").properties().forEach(label -> labels.put(label.getKey(),
                        label.getValue().asString()));
                samples.add(new Sample(sample.path("name").asString(), labels, sample.path("value").asDouble()));
            }
        }
        return samples;
    }

    private static double value(List<Sample> samples, String name, Map<String, String> labels) {
        return samples.stream().filter(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet())
                        && (labels.isEmpty() ? s.labels().isEmpty() : true))
                .mapToDouble(Sample::value).findFirst()
                .orElseThrow(() -> new AssertionError("no sample " + name + labels + " in " + samples));
    }
}
