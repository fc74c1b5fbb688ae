package dev.mesh.controller.core.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.RequestRecords;
import dev.mesh.controller.core.Sighting;
import dev.mesh.controller.core.VerbCalls;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.Wire;
import dev.mesh.controller.core.memory.ForwardingInventory;
import dev.mesh.controller.core.memory.LocalLifecycle;
import dev.mesh.controller.core.memory.MemoryEvents;
import dev.mesh.controller.core.memory.MemoryInventory;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Manifest;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code status} answers from what the controller last read, and says when the store did not answer. */
class StatusTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Instant NOW = Instant.parse("2026-11-29T21:00:00Z");

    private final MemoryInventory memory = new MemoryInventory();
    private final Unreliable inventory = new Unreliable(memory);
    private final Verbs verbs = Verbs.of(new Verbs.Ports(inventory, Licences.NONE, LocalLifecycle.active(),
            new MemoryEvents(), RequestRecords.NONE, Layout.DEFAULT, Clock.fixed(NOW, ZoneOffset.UTC)));

    private JsonNode call(String verb, String arguments) {
        return verbs.call(verb, JSON.readTree(arguments));
    }

    @Test
    void status_afterAChangeThroughTheVerbs_isCurrent_andReadsNothing() {
        memory.report(new Node("alpha", "10.0.0.1", "debian-12"));
        call("push", "{\"manifest\": {\"module\": \"web\", \"version\": \"1\", \"tools\": [\"web\"]}}");
        call("assign", "{\"module\": \"web\", \"node\": \"alpha\"}");
        inventory.reads = 0;

        JsonNode status = call("status", "{}");

        assertThat(inventory.reads).isZero();
        assertThat(status.path("nodes").asInt()).isEqualTo(1);
        assertThat(status.path("modules").asInt()).isEqualTo(1);
        assertThat(status.path("assignments").asInt()).isEqualTo(1);
        assertThat(status.path("store").asString()).isEqualTo("ok");
        assertThat(status.path("asOf").asString()).isEqualTo("2026-11-29T21:00:00Z");
        assertThat(status.path("plan").isObject()).isTrue();
    }

    @Test
    void status_changesOutsideTheVerbs_showAfterRefresh() {
        call("status", "{}");
        memory.report(new Node("alpha", "10.0.0.1", "debian-12"));

        assertThat(call("status", "{}").path("nodes").asInt()).as("not read again").isZero();
        verbs.refresh();
        assertThat(call("status", "{}").path("nodes").asInt()).isEqualTo(1);
    }

    @Test
    void refresh_storeDown_statusSaysSo_andKeepsTheLastCounts() {
        memory.report(new Node("alpha", "10.0.0.1", "debian-12"));
        verbs.refresh();
        inventory.down = true;

        JsonNode refreshed = verbs.refresh();

        assertThat(refreshed.path("store").asString()).isEqualTo("unavailable: the inventory does not answer");
        assertThat(call("status", "{}").path("store").asString()).isEqualTo(refreshed.path("store").asString());
        assertThat(call("status", "{}").path("nodes").asInt()).isEqualTo(1);
        inventory.down = false;
        assertThat(verbs.refresh().path("store").asString()).isEqualTo("ok");
    }

    @Test
    void status_firstCall_readsTheInventory() {
        memory.report(new Node("alpha", "10.0.0.1", "debian-12"));

        assertThat(call("status", "{}").path("nodes").asInt()).isEqualTo(1);
    }

    @Test
    void status_withoutAWire_hasNoBus() {
        assertThat(call("status", "{}").has("bus")).isFalse();
        assertThat(verbs.refresh().has("bus")).isFalse();
    }

    @Test
    void status_showsTheWiresCounts_readInTheRefreshAlone_neverPerCallNorByAChange() {
        memory.report(new Node("alpha", "10.0.0.1", "debian-12"));
        CountingWire wire = new CountingWire();
        Verbs counted = Verbs.of(new Verbs.Ports(inventory, Licences.NONE, LocalLifecycle.active(), new MemoryEvents(),
                RequestRecords.NONE, Layout.DEFAULT, Clock.fixed(NOW, ZoneOffset.UTC), wire));

        JsonNode first = counted.call("status", JSON.readTree("{}"));
        assertThat(wire.reads).as("the first status reads what was never read").isEqualTo(1);
        assertThat(first.path("bus").toString()).isEqualTo("{\"broker\":\"ok\",\"dead\":1,\"facts\":"
                + "{\"received\":1}}");
        counted.call("push", JSON.readTree("{\"manifest\": {\"module\": \"web\", \"version\": \"1\", "
                + "\"tools\": [\"web\"]}}"));
        counted.call("assign", JSON.readTree("{\"module\": \"web\", \"node\": \"alpha\"}"));
        for (int i = 0; i < 3; i++) {
            counted.call("status", JSON.readTree("{}"));
        }
        assertThat(wire.reads).as("neither status nor a change reads the wire").isEqualTo(1);

        JsonNode refreshed = counted.refresh();

        assertThat(wire.reads).isEqualTo(2);
        assertThat(refreshed.path("bus").path("dead").asInt()).isEqualTo(2);
        assertThat(counted.call("status", JSON.readTree("{}")).path("bus")).isEqualTo(refreshed.path("bus"));
        assertThat(refreshed.path("assignments").asInt()).isEqualTo(1);
    }

    @Test
    void status_aWireThatCouldNotReadTheBroker_isShownAsItSaysSo() {
        Verbs counted = Verbs.of(new Verbs.Ports(inventory, Licences.NONE, LocalLifecycle.active(), new MemoryEvents(),
                RequestRecords.NONE, Layout.DEFAULT, Clock.fixed(NOW, ZoneOffset.UTC), () -> {
                    Map<String, Object> counts = new LinkedHashMap<>();
                    counts.put("broker", "unavailable: the broker does not answer");
                    counts.put("dead", null);
                    return counts;
                }));

        JsonNode bus = counted.refresh().path("bus");

        assertThat(bus.toString()).isEqualTo("{\"broker\":\"unavailable: the broker does not answer\",\"dead\":null}");
        assertThat(counted.call("status", JSON.readTree("{}")).path("store").asString()).isEqualTo("ok");
    }

    /** A wire whose dead letters grow by one at each read, which it counts. */
    private static final class CountingWire implements Wire {

        volatile int reads;

        @Override
        public Map<String, Object> counts() {
            reads++;
            Map<String, Object> counts = new LinkedHashMap<>();
            counts.put("broker", "ok");
            counts.put("dead", reads);
            counts.put("facts", Map.of("received", 1));
            return counts;
        }
    }

    /** An inventory that counts its reads and can stop answering. */
    private static final class Unreliable extends ForwardingInventory {

        volatile boolean down;
        volatile int reads;

        Unreliable(Inventory delegate) {
            super(delegate);
        }

        private <T> T read(T value) {
            if (down) {
                throw new VerbException(VerbException.Code.UNAVAILABLE, "the inventory does not answer", "");
            }
            reads++;
            return value;
        }

        @Override
        public List<Node> nodes() {
            return read(delegate.nodes());
        }

        @Override
        public List<Node> nodes(String after, int limit) {
            return read(delegate.nodes(after, limit));
        }

        @Override
        public Optional<Node> node(String name) {
            return read(delegate.node(name));
        }

        @Override
        public Map<String, Facts> facts() {
            return read(delegate.facts());
        }

        @Override
        public Optional<Facts> facts(String node) {
            return read(delegate.facts(node));
        }

        @Override
        public Map<String, Sighting> sightings() {
            return read(delegate.sightings());
        }

        @Override
        public Map<String, Sighting> sightings(String after, String last) {
            return read(delegate.sightings(after, last));
        }

        @Override
        public List<Manifest> modules() {
            return read(delegate.modules());
        }

        @Override
        public Optional<Manifest> module(String name) {
            return read(delegate.module(name));
        }

        @Override
        public List<Assignment> assignments() {
            return read(delegate.assignments());
        }

        @Override
        public List<Assignment> assignments(Set<String> modules) {
            return read(delegate.assignments(modules));
        }

        @Override
        public List<Assignment> assignments(Set<String> modules, String after, String last) {
            return read(delegate.assignments(modules, after, last));
        }

        @Override
        public Map<String, Declaration> acknowledged() {
            return read(delegate.acknowledged());
        }

        @Override
        public Map<String, Declaration> desired() {
            return read(delegate.desired());
        }

        @Override
        public Map<String, dev.mesh.controller.core.Built> built() {
            return read(delegate.built());
        }

        @Override
        public Set<String> requested() {
            return read(delegate.requested());
        }
    }

    @Test
    void status_ofAnActiveController_tellsHowItTookTheLock() {
        JsonNode handover = call("status", "{}").path("handover");

        assertThat(handover.path("how").asString()).isEqualTo("first");
        assertThat(handover.path("from").asString()).isEmpty();
        assertThat(handover.path("gapMs").isNull()).isTrue();
        assertThat(handover.path("lockWaitMs").isIntegralNumber()).isTrue();
    }

    @Test
    void status_withoutCountedCalls_hasNoVerbs_andWithThem_tellsCallsAndFailures() {
        assertThat(call("status", "{}").has("verbs")).isFalse();

        Verbs counted = Verbs.of(new Verbs.Ports(memory, Licences.NONE, LocalLifecycle.active(), new MemoryEvents(),
                RequestRecords.NONE, Layout.DEFAULT, Clock.fixed(NOW, ZoneOffset.UTC)).withCalls(new VerbCalls() {
                    @Override
                    public void called(String verb, String outcome, java.time.Duration took) {
                    }

                    @Override
                    public Optional<Tally> tally() {
                        return Optional.of(new Tally(7, 2));
                    }
                }));
        JsonNode status = counted.call("status", JSON.readTree("{}"));

        assertThat(status.path("verbs").path("calls").asLong()).isEqualTo(7);
        assertThat(status.path("verbs").path("failed").asLong()).isEqualTo(2);
    }
}
