package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.bus.Broker;
import dev.mesh.controller.bus.BrokerSettings;
import dev.mesh.controller.bus.BrokerUpstream;
import dev.mesh.controller.bus.BrokerVerbs;
import dev.mesh.controller.bus.Topology;
import dev.mesh.controller.cli.LocalNode;
import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.ProcessState;
import dev.mesh.controller.core.Secret;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.LocalPlanLock;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryIdentity;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.core.memory.MemoryRequestRecords;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.mcp.Assembly;
import dev.mesh.controller.mcp.BearerToken;
import dev.mesh.controller.mcp.McpClient;
import dev.mesh.controller.mcp.McpDispatcher;
import dev.mesh.controller.mcp.McpHttpServer;
import dev.mesh.controller.testing.LocalRabbit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The contract of the two transports: every verb answers over the broker exactly what it answers over
 * HTTP. One controller, assembled as {@code serve --http} assembles it ({@link Assembly}: one
 * {@link Verbs}, its dispatcher served over loopback HTTP, and {@link BrokerVerbs} on the same verbs),
 * over core's in-memory ports with a fixed clock; the HTTP side is {@link McpClient} with the bearer
 * token, the broker's is {@link BrokerUpstream} on a virtual host of its own on the local RabbitMQ.
 *
 * <p>Each step sends the same JSON-RPC message (the same {@code id}, the same arguments) over HTTP, then
 * over the broker, from the same state, and compares the whole responses. What may differ, and why:
 * <ul>
 * <li>nothing of the time: the clock is fixed, so {@code asOf}, {@code since} and the like agree
 *     (with a real clock they would differ by the time between the two calls);</li>
 * <li>the request id of a mutating verb travels differently — over HTTP in
 *     {@code _meta["dev.mesh/request-id"]}, over the broker as the {@code message_id} BrokerUpstream
 *     gives every request — and is not in the answer; the ids are different (request ids are global,
 *     and one id from two principals is a {@code conflict});</li>
 * <li>the callers differ ({@code local} over HTTP, {@code guest} over the broker), both granted every
 *     verb: no answer names its caller;</li>
 * <li>a mutating verb changes the state the second call would see, so the steps are arranged to give
 *     both the same state: {@code assign} then {@code unassign} over HTTP, then both over the broker;
 *     {@code build} asks again for what it asked (the same answer); and a {@code push} that changes the
 *     mesh pushes a version of its own over each transport, so its answers differ in the version alone,
 *     which is replaced before comparing.</li>
 * </ul>
 */
class VerbsOverBothTransportsIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC);
    private static final String VERSION = "0.1.0-contract";
    private static final String CALLER = "guest";

    private final String vhost = "mesh-it-contract-" + UUID.randomUUID().toString().substring(0, 8);
    private final Set<String> called = new TreeSet<>();
    private Assembly assembly;
    private Broker broker;
    private BrokerVerbs brokerVerbs;
    private McpClient http;
    private BrokerUpstream overBroker;
    private int id;

    @BeforeEach
    void start() {
        LocalRabbit.get().addVhost(vhost);
        LocalRabbit.get().setPermissions(vhost, CALLER, ".*", ".*", ".*");
        MemoryInventory inventory = new MemoryInventory();
        inventory.report(List.of(new Facts(new Node("alpha", "10.0.0.1", "debian-12"), "", List.of(
                new ProcessState("mesh-store", ProcessState.State.RUNNING, CLOCK.instant(), 3)), CLOCK.instant())));
        inventory.report(new Node("beta", "10.0.0.2", "debian-12"));
        MemoryIdentity identity = new MemoryIdentity();
        for (String principal : List.of(LocalNode.NAME, CALLER)) {
            identity.add(principal);
            identity.grant(principal, Verbs.names().toArray(String[]::new));
        }
        Lifecycle lifecycle = LocalLifecycle.active(LocalPlanLock.create(), "contract:1", CLOCK);
        assembly = Assembly.of(new Verbs.Ports(inventory, Licences.NONE, lifecycle, new MemoryEvents(),
                new MemoryRequestRecords(), Layout.DEFAULT, CLOCK), identity, VERSION);
        BearerToken token = BearerToken.random();
        McpHttpServer server = assembly.serveHttp(McpHttpServer.Config.loopback(0, token, LocalNode.NAME));
        http = McpClient.of(server.endpoint(), token);

        BrokerSettings settings = new BrokerSettings("127.0.0.1", 5672, vhost, CALLER, Secret.of("guest"),
                BrokerSettings.Transport.PLAIN);
        broker = Broker.connect(settings, "it-contract");
        Topology.declare(broker);
        brokerVerbs = BrokerVerbs.start(broker, assembly.verbs(), identity, VERSION, lifecycle);
        overBroker = BrokerUpstream.connect(settings, Duration.ofSeconds(20));
    }

    @AfterEach
    void stop() {
        if (overBroker != null) {
            overBroker.close();
        }
        if (brokerVerbs != null) {
            brokerVerbs.close();
        }
        if (broker != null) {
            broker.close();
        }
        if (http != null) {
            http.close();
        }
        if (assembly != null) {
            assembly.close();
        }
        LocalRabbit.get().deleteVhost(vhost);
    }

    @Test
    void everyVerb_readsAndMutating_answersOverTheBrokerExactlyAsOverHttp() throws IOException {
        String store = Files.readString(Path.of("../examples/modules/mesh-store.json"));
        JsonNode list = message("tools/list", null);
        assertThat(overBroker.exchange(list).orElseThrow()).as("tools/list").isEqualTo(http.exchange(list)
                .orElseThrow());
        reads();

        // push: a version of its own over each transport, from the same state (neither pushed).
        ObjectNode manifest = (ObjectNode) JSON.readTree(store);
        String version = manifest.path("version").asString();
        String other = version + "1";
        manifest.put("version", other);
        JsonNode first = call("push", Map.of("manifest", store), true);
        JsonNode overHttp = http.exchange(first).orElseThrow();
        JsonNode overBrokerPush = overBroker.exchange(withoutMeta(call("push", Map.of("manifest",
                JSON.writeValueAsString(manifest)), false).put("id", first.get("id").asInt()))).orElseThrow();
        assertThat(overHttp.at("/result/structuredContent/changed").asBoolean()).as(overHttp.toString()).isTrue();
        assertThat(JSON.readTree(overBrokerPush.toString().replace(other, version))).as("push that changes the "
                + "mesh, but for the version").isEqualTo(overHttp);
        same("push", Map.of("manifest", store), true);
        same("push", Map.of("manifest", "{\"module\": \"Bad Name\"}"), true);
        reads();

        for (String node : List.of("alpha", "beta")) {
            // assign and unassign over HTTP, then over the broker: each pair starts from the same state.
            JsonNode assign = call("assign", Map.of("module", "mesh-store", "node", node), true);
            JsonNode unassign = call("unassign", Map.of("module", "mesh-store", "node", node), true);
            JsonNode assignedOverHttp = http.exchange(assign).orElseThrow();
            reads();
            JsonNode unassignedOverHttp = http.exchange(unassign).orElseThrow();
            JsonNode assignedOverBroker = overBroker.exchange(withoutMeta(assign)).orElseThrow();
            JsonNode unassignedOverBroker = overBroker.exchange(withoutMeta(unassign)).orElseThrow();
            assertThat(assignedOverHttp.at("/result/structuredContent/changed").asBoolean())
                    .as(assignedOverHttp.toString()).isTrue();
            assertThat(assignedOverBroker).as("assign " + node).isEqualTo(assignedOverHttp);
            assertThat(unassignedOverBroker).as("unassign " + node).isEqualTo(unassignedOverHttp);
        }
        // Left assigned (not through a transport), so the reads see a plan with changes, and assigning
        // again changes nothing over either transport.
        assembly.verbs().call("assign", JSON.valueToTree(Map.of("module", "mesh-store", "node", "alpha")));
        same("assign", Map.of("module", "mesh-store", "node", "alpha"), true);
        same("assign", Map.of("module", "no-such-module", "node", "alpha"), true);
        same("assign", Map.of("module", "mesh-store"), true);
        same("unassign", Map.of("module", "no-such-module", "node", "alpha"), true);
        same("build", Map.of("module", "mesh-store"), true);
        same("build", Map.of("module", "mesh-store", "artifact", "no-such-artifact"), true);
        reads();

        assertThat(called).as("every verb called over both transports").isEqualTo(new TreeSet<>(Verbs.names()));
    }

    /** Every read verb, and one that fails. */
    private void reads() {
        same("tools", Map.of(), false);
        same("status", Map.of(), false);
        same("nodes", Map.of(), false);
        same("node", Map.of("name", "alpha"), false);
        same("node", Map.of("name", "no-such-node"), false);
        same("modules", Map.of(), false);
        same("seats", Map.of(), false);
        same("builds", Map.of(), false);
        same("plan", Map.of(), false);
    }

    /** Sends one call over both transports, from the same state, and compares the answers. */
    private void same(String verb, Map<String, Object> arguments, boolean withRequestId) {
        ObjectNode request = call(verb, arguments, withRequestId);
        JsonNode overHttp = http.exchange(request).orElseThrow();
        JsonNode overTheBroker = overBroker.exchange(withoutMeta(request)).orElseThrow();
        assertThat(overHttp.path("result").isObject()).as(verb + " over HTTP: " + overHttp).isTrue();
        assertThat(overTheBroker).as(verb + " " + arguments).isEqualTo(overHttp);
    }

    /**
     * @param withRequestId for a mutating verb: a fresh request id in {@code _meta}, which HTTP carries;
     *     {@link #withoutMeta} takes it out for the broker, whose request id is the {@code message_id}
     */
    private ObjectNode call(String verb, Map<String, Object> arguments, boolean withRequestId) {
        called.add(verb);
        ObjectNode params = JSON.createObjectNode().put("name", verb);
        params.set("arguments", JSON.valueToTree(arguments));
        if (withRequestId) {
            params.putObject("_meta").put(McpDispatcher.REQUEST_ID_META, "http-" + UUID.randomUUID());
        }
        return message("tools/call", params);
    }

    private ObjectNode message(String method, ObjectNode params) {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", ++id).put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        return message;
    }

    private static JsonNode withoutMeta(JsonNode request) {
        ObjectNode copy = (ObjectNode) request.deepCopy();
        ((ObjectNode) copy.path("params")).remove("_meta");
        return copy;
    }
}
