package dev.mesh.controller.store;

import static dev.mesh.controller.store.internal.schema.inventory.Tables.BUILDS;
import static dev.mesh.controller.store.internal.schema.inventory.Tables.BUILD_REQUESTS;
import static dev.mesh.controller.store.internal.schema.inventory.Tables.MODULE_VERSIONS;
import static dev.mesh.controller.store.internal.schema.inventory.Tables.NODE_FAILURES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.InventoryContract;
import dev.mesh.controller.core.ModuleVersion;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Report;
import dev.mesh.controller.core.compose.Composer;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Manifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.JSON;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Core's {@link InventoryContract} on {@link PgInventory}, and what the PostgreSQL inventory adds. */
class PgInventoryIT extends InventoryContract {

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    /** The inventory {@link #newInventory()} made for the current test, on a new database. */
    private PgInventory store;
    private DataSource dataSource;

    @Override
    protected Inventory newInventory() {
        dataSource = databases.migrated(Database.INVENTORY).dataSource();
        store = new PgInventory(dataSource);
        return store;
    }

    @Test
    void acknowledged_readAgain_parsesOnlyWhatChanged() {
        Declaration store1 = declaration("alpha", "store");
        Declaration bus = declaration("beta", "bus");
        store.acknowledge(store1);
        store.acknowledge(bus);
        Map<String, Declaration> first = store.acknowledged();

        Declaration web = declaration("alpha", "web");
        store.desire(web);
        store.acknowledge("alpha", web.revision());
        Map<String, Declaration> second = store.acknowledged();

        assertThat(first).isEqualTo(Map.of("alpha", store1, "beta", bus));
        assertThat(second).isEqualTo(Map.of("alpha", web, "beta", bus));
        assertThat(second.get("beta")).as("unchanged: the instance read before").isSameAs(first.get("beta"));
        assertThat(new PgInventory(dataSource).acknowledged()).as("another inventory reads the same")
                .isEqualTo(second);
        store.acknowledge(store1);
        assertThat(store.acknowledged()).isEqualTo(Map.of("alpha", store1, "beta", bus));
    }

    private static Declaration declaration(String node, String module) {
        Mesh mesh = new Mesh(List.of(new Node(node, "10.0.0.1", "debian-12")),
                List.of(Manifest.parse("{\"module\": \"%s\", \"version\": \"1\", \"tools\": [\"%s\"]}"
                        .formatted(module, module))),
                List.of(new Assignment(module, node)), Layout.DEFAULT);
        return Composer.compose(mesh).declarations().getFirst();
    }

    @Test
    void nodes_areInTheOrderJavaSortsTheirNames() {
        for (String name : List.of("b", "B", "a", "_x", "a-2")) {
            store.report(new Node(name, "10.0.0.1", "debian-12"));
        }

        assertThat(store.nodes()).extracting(Node::name).containsExactly("B", "_x", "a", "a-2", "b");
    }

    @Test
    void nodesAfter_pagesThroughManyNodes_eachOnceInOrder_withTheirSightingsAndAssignments() {
        DSLContext db = DSL.using(dataSource, SQLDialect.POSTGRES);
        db.execute("INSERT INTO nodes (name, address, system) SELECT 'node-' || lpad(i::text, 5, '0'), '10.0.0.1', "
                + "'debian-12' FROM generate_series(1, 20000) AS i");
        db.execute("UPDATE nodes SET last_seen_at = now(), processes = '[]', applied_revision = 'sha256:aa' "
                + "WHERE name LIKE '%7'");
        db.execute("INSERT INTO assignments (node, module) SELECT name, 'host' FROM nodes");

        List<String> names = new ArrayList<>();
        int pages = 0;
        String after = "";
        for (List<Node> page = store.nodes(after, 1_000); !page.isEmpty(); page = store.nodes(after, 1_000)) {
            List<String> onPage = page.stream().map(Node::name).toList();
            assertThat(store.sightings(after, onPage.getLast()).keySet()).as("the heard-from tenth of the page")
                    .containsExactlyInAnyOrderElementsOf(onPage.stream().filter(name -> name.endsWith("7")).toList());
            assertThat(store.assignments(Set.of("host", "web"), after, onPage.getLast())).extracting(Assignment::node)
                    .containsExactlyElementsOf(onPage);
            names.addAll(onPage);
            after = page.getLast().name();
            pages++;
        }

        assertThat(pages).isEqualTo(20);
        assertThat(names).hasSize(20_000).doesNotHaveDuplicates().isSorted();
        assertThat(names.getFirst()).isEqualTo("node-00001");
        assertThat(names.getLast()).isEqualTo("node-20000");
    }

    /**
     * What keeps a page's cost the page's: the keys of {@code nodes} and {@code assignments}, in the collation
     * the keyset compares in, serve the queries of a page — {@link PgInventory#nodes(String, int)}'s
     * {@code WHERE name > ? ORDER BY name LIMIT ?}, and the sightings and assignments of its range of names —
     * as range scans of the index, never a scan of the table (nor, for the nodes, a sort). The statements are written here as the
     * adapter asks them.
     */
    @Test
    void pageQueries_areRangeScansOfTheKeys_notScansOrSortsOfTheTables() {
        DSLContext db = DSL.using(dataSource, SQLDialect.POSTGRES);
        db.execute("INSERT INTO nodes (name, address, system) SELECT 'node-' || lpad(i::text, 6, '0'), '10.0.0.1', "
                + "'debian-12' FROM generate_series(1, 100000) AS i");
        db.execute("INSERT INTO assignments (node, module) SELECT name, 'mod-' || m FROM nodes, "
                + "generate_series(1, 3) AS m");
        db.execute("ANALYZE nodes");
        db.execute("ANALYZE assignments");

        String nodes = plan(db, "SELECT name, address, system FROM nodes WHERE name > 'node-050000' ORDER BY name "
                + "LIMIT 1001");
        String sightings = plan(db, "SELECT name, applied_revision, last_seen_at FROM nodes WHERE name > "
                + "'node-050000' AND name <= 'node-051000' AND last_seen_at IS NOT NULL");
        String assignments = plan(db, "SELECT module, node FROM assignments WHERE node > 'node-050000' AND "
                + "node <= 'node-051000' AND module IN ('mod-1', 'mod-3') ORDER BY node, module");

        assertThat(nodes).startsWith("Limit").contains("Index Scan using nodes_pk on nodes")
                .doesNotContain("Sort", "Seq Scan");
        // A bitmap scan of the key, then a sort of the page's rows, is as good: it reads the page's range alone.
        assertThat(sightings).containsPattern("Index Scan (using|on) nodes_pk").doesNotContain("Seq Scan");
        assertThat(assignments).containsPattern("Index Scan (using|on) assignments_pk").doesNotContain("Seq Scan");
    }

    private static String plan(DSLContext db, String query) {
        return String.join("\n", db.fetch("EXPLAIN " + query).getValues(0, String.class));
    }

    @Test
    void push_keepsTheDocumentVerbatim() throws IOException {
        String document = Files.readString(Path.of("../manifest.json"));
        ModuleVersion controller = ModuleVersion.parse(document, "manifest.json");

        assertThat(store.push(controller)).isTrue();

        assertThat(DSL.using(dataSource, SQLDialect.POSTGRES).select(MODULE_VERSIONS.MANIFEST).from(MODULE_VERSIONS)
                .fetchSingle().value1().data()).isEqualTo(document);
        Manifest back = store.module(controller.module()).orElseThrow();
        assertThat(back.requirements()).isEqualTo(controller.manifest().requirements());
        assertThat(back.artifacts()).hasSameSizeAs(controller.manifest().artifacts());
        assertThat(store.modules()).hasSize(1);
    }

    @Test
    void push_anOlderVersionAgain_makesItTheCurrentOne() {
        ModuleVersion one = ModuleVersion.parse("{\"module\": \"store\", \"version\": \"1\"}", "manifest");
        ModuleVersion two = ModuleVersion.parse("{\"module\": \"store\", \"version\": \"2\"}", "manifest");
        store.push(one);
        store.push(two);

        assertThat(store.push(one)).isFalse();
        assertThat(store.module("store")).get().extracting(Manifest::version).isEqualTo("1");
    }

    @Test
    void finish_keepsTheLatestOutcomeAndDetail() {
        store.request("build:store@1/server");
        store.finish(InventoryContract.failed("build:store@1/server", "go build: exit status 1"));
        store.request("build:store@1/server");
        store.finish(InventoryContract.succeeded("build:store@1/server"));

        assertThat(DSL.using(dataSource, SQLDialect.POSTGRES).select(BUILDS.OUTCOME, BUILDS.DETAIL).from(BUILDS)
                .fetchSingle().intoArray()).containsExactly("succeeded", "");
        assertThat(store.built().keySet()).containsExactly("build:store@1/server");
    }

    @Test
    void aSuccessRecordedWithoutItsArchive_isNotBuilt_andIsBuiltAgain() {
        // As the controller of the version before builds named their archive recorded a success.
        DSL.using(dataSource, SQLDialect.POSTGRES).insertInto(BUILDS, BUILDS.MODULE, BUILDS.VERSION, BUILDS.ARTIFACT,
                BUILDS.OUTCOME).values("store", "1", "server", "succeeded").execute();

        assertThat(store.built()).isEmpty();
        assertThat(store.request("build:store@1/server")).as("requested again: no declaration can pin it").isTrue();
        store.finish(InventoryContract.succeeded("build:store@1/server"));

        assertThat(store.built()).containsOnlyKeys("build:store@1/server");
        assertThat(store.built().get("build:store@1/server").location())
                .isEqualTo("file:///builds/store-1-server.tar.gz");
    }

    @Test
    void request_malformedBuildId_isRefusedBeforeTheDatabase() {
        assertThatThrownBy(() -> store.request("store@1/server"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("build id \"store@1/server\" is not of the form build:MODULE@VERSION/ARTIFACT");
    }

    @Test
    void sent_recordsTheEpochAndWhen_andARequestAgainClearsThem() {
        store.request("build:store@1/server");
        store.sent("build:store@1/server", 7);

        var sent = DSL.using(dataSource, SQLDialect.POSTGRES).select(BUILD_REQUESTS.SENT_EPOCH, BUILD_REQUESTS.SENT_AT)
                .from(BUILD_REQUESTS).fetchSingle();
        assertThat(sent.value1()).isEqualTo(7L);
        assertThat(sent.value2()).isNotNull();

        store.request("build:store@1/server");
        assertThat(DSL.using(dataSource, SQLDialect.POSTGRES).select(BUILD_REQUESTS.SENT_EPOCH, BUILD_REQUESTS.SENT_AT)
                .from(BUILD_REQUESTS).fetchSingle().intoArray()).containsExactly(null, null);
    }

    @Test
    void failed_keepsTheStepsAsJson_inTheOrderReported() {
        store.failed(new Report.Failed("alpha", "sha256:a", List.of(new Report.Step("alpha/process:b", false, "exit 1"),
                new Report.Step("alpha/account:a", true, "")), Instant.parse("2026-11-29T21:00:00.123456Z")));

        assertThat(DSL.using(dataSource, SQLDialect.POSTGRES).select(NODE_FAILURES.STEPS).from(NODE_FAILURES)
                .fetchSingle().value1().data()).isEqualTo("[{\"id\":\"alpha/process:b\",\"done\":false,\"detail\":"
                        + "\"exit 1\"},{\"id\":\"alpha/account:a\",\"done\":true,\"detail\":\"\"}]");
    }

    @Test
    void storedFailureThatCannotBeRead_isAStoreExceptionNamingTheNode() {
        store.failed(new Report.Failed("alpha", "sha256:a", List.of(), Instant.parse("2026-11-29T21:00:00Z")));
        DSL.using(dataSource, SQLDialect.POSTGRES).update(NODE_FAILURES)
                .set(NODE_FAILURES.STEPS, JSON.valueOf("[{\"id\": \"alpha/process:b\", \"detail\": \"\"}]")).execute();

        assertThatThrownBy(store::failures)
                .isInstanceOf(StoreException.class)
                .hasMessage("the failure node alpha reported, as the inventory database holds it, cannot be read "
                        + "(No value for property 'done' of `ObjectNode`); it is replaced at the node's next failure "
                        + "report, and ends when the node applies its revision");
    }
}
