package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.InventoryContract;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.store.internal.ManifestDocument;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Core's {@link InventoryContract} on {@link PgInventory}, and what the PostgreSQL inventory adds. */
class PgInventoryIT extends InventoryContract {

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    /** The inventory {@link #newInventory()} made for the current test, on a new database. */
    private PgInventory store;

    @Override
    protected Inventory newInventory() {
        store = new PgInventory(databases.migrated(Database.INVENTORY).dataSource());
        return store;
    }

    @Test
    void nodes_areInTheOrderJavaSortsTheirNames() {
        for (String name : List.of("b", "B", "a", "_x", "a-2")) {
            store.report(new Node(name, "10.0.0.1", "debian-12"));
        }

        assertThat(store.nodes()).extracting(Node::name).containsExactly("B", "_x", "a", "a-2", "b");
    }

    @Test
    void push_keepsTheWholeManifest() {
        Manifest controller = Manifest.read(Path.of("../manifest.json"));

        assertThat(store.push(controller, "sha256:controller")).isTrue();

        Manifest back = store.module(controller.module()).orElseThrow();
        assertThat(ManifestDocument.write(back)).isEqualTo(ManifestDocument.write(controller));
        assertThat(back.requirements()).isEqualTo(controller.requirements());
        assertThat(store.modules()).hasSize(1);
    }

    @Test
    void push_anOlderVersionAgain_makesItTheCurrentOne() {
        Manifest one = Manifest.parse("{\"module\": \"store\", \"version\": \"1\"}");
        Manifest two = Manifest.parse("{\"module\": \"store\", \"version\": \"2\"}");
        store.push(one, "sha256:1");
        store.push(two, "sha256:2");

        assertThat(store.push(one, "sha256:1")).isFalse();
        assertThat(store.module("store")).get().extracting(Manifest::version).isEqualTo("1");
    }

    @Test
    void acknowledge_keepsTheLatestDeclarationPerNode() {
        Declaration first = declaration("alpha", "store");
        Declaration second = declaration("alpha", "broker");
        Declaration beta = declaration("beta", "store");

        store.acknowledge(first);
        store.acknowledge(beta);
        store.acknowledge(second);

        assertThat(store.acknowledged()).isEqualTo(Map.of("alpha", second, "beta", beta));
    }

    @Test
    void build_isBuiltAndNoLongerRequested_andNotRequestedAgain() {
        store.request("build:store@1/server");
        store.request("build:bus@2.0/bus");

        store.build("build:store@1/server");

        assertThat(store.built()).containsExactly("build:store@1/server");
        assertThat(store.requested()).containsExactly("build:bus@2.0/bus");
        assertThat(store.request("build:store@1/server")).isFalse();
        assertThat(store.requested()).containsExactly("build:bus@2.0/bus");
    }

    @Test
    void request_malformedBuildId_isRefusedBeforeTheDatabase() {
        assertThatThrownBy(() -> store.request("store@1/server"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("build id \"store@1/server\" is not of the form build:MODULE@VERSION/ARTIFACT");
    }

    @Test
    void unmigratedDatabase_isAStoreExceptionNamingTheOperation() {
        PgInventory unmigrated = new PgInventory(databases.empty(Database.INVENTORY).dataSource());

        assertThatThrownBy(unmigrated::nodes)
                .isInstanceOf(StoreException.class)
                .hasMessageStartingWith("could not list the nodes in the inventory database: ")
                .hasMessageContaining("relation \"nodes\" does not exist");
    }

    private static Declaration declaration(String node, String account) {
        Declaration unsigned = new Declaration(node, "", List.of(new Declaration.Account(account, "", "")), List.of(),
                List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
        return unsigned.withRevision(CanonicalJson.digest(unsigned));
    }
}
