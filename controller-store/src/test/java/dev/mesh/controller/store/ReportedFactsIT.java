package dev.mesh.controller.store;

import static dev.mesh.controller.store.internal.schema.inventory.Tables.NODES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.jooq.impl.DSL.countDistinct;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;

import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.ProcessState;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.JSON;
import org.jooq.Record2;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the bus relies on when it hands over many facts at once: one transaction, one statement per
 * {@value ReportedFacts#ROWS_PER_STATEMENT} nodes, all or nothing. The evidence is PostgreSQL's own
 * and independent of time: every row version carries the id of the transaction that wrote it
 * ({@code xmin}) and the number of the statement within it ({@code cmin}).
 */
class ReportedFactsIT {

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    private static final Instant AT = Instant.parse("2026-11-29T21:00:00Z");

    private PgInventory inventory;
    private DSLContext sql;

    @BeforeEach
    void freshInventory() {
        DataSource dataSource = databases.migrated(Database.INVENTORY).dataSource();
        inventory = new PgInventory(dataSource);
        sql = DSL.using(dataSource, SQLDialect.POSTGRES);
    }

    private static List<Facts> facts(int count, Instant at) {
        List<Facts> facts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            facts.add(new Facts(new Node("n%04d".formatted(i), "10.0.%d.%d".formatted(i / 250, i % 250), "debian-12"),
                    "sha256:" + i, List.of(new ProcessState("mesh-host", ProcessState.State.RUNNING, at, i % 3)), at));
        }
        return facts;
    }

    /** @return how many transactions and how many statements wrote the rows of the nodes table as they are */
    private Record2<Integer, Integer> writers() {
        return sql.select(countDistinct(field(name("xmin")).cast(String.class)),
                        countDistinct(field(name("cmin")).cast(String.class)))
                .from(NODES).fetchSingle();
    }

    @Test
    void fiveHundredFacts_newNodesThenUpdates_areOneStatementInOneTransactionEach() {
        inventory.report(facts(500, AT));

        assertThat(writers().intoArray()).as("transactions, statements").containsExactly(1, 1);
        assertThat(inventory.facts()).hasSize(500);

        inventory.report(facts(500, AT.plusSeconds(5)));

        assertThat(writers().intoArray()).as("transactions, statements").containsExactly(1, 1);
        assertThat(inventory.facts().values()).allSatisfy(f -> assertThat(f.at()).isEqualTo(AT.plusSeconds(5)));
    }

    @Test
    void moreFactsThanOneStatementTakes_areStillOneTransaction() {
        inventory.report(facts(2 * ReportedFacts.ROWS_PER_STATEMENT + 1, AT));

        assertThat(writers().intoArray()).as("transactions, statements").containsExactly(1, 3);
        assertThat(inventory.nodes()).hasSize(2 * ReportedFacts.ROWS_PER_STATEMENT + 1);
    }

    @Test
    void seenOfThousandsOfNodes_isOneStatementInOneTransaction_movingTheLaterOnesLastSeenTimeAlone() {
        List<Facts> reported = facts(2 * ReportedFacts.ROWS_PER_STATEMENT + 500, AT);
        inventory.report(reported);
        Map<String, OffsetDateTime> writtenAt = sql.select(NODES.NAME, NODES.REPORTED_AT).from(NODES)
                .fetchMap(NODES.NAME, NODES.REPORTED_AT);

        // Every other node seen 5 s later; the others at their stored time (not later); one name no node has.
        Map<String, Instant> seen = new HashMap<>();
        for (int i = 0; i < reported.size(); i++) {
            seen.put(reported.get(i).node().name(), i % 2 == 0 ? AT.plusSeconds(5) : AT);
        }
        seen.put("n-none", AT.plusSeconds(5));
        inventory.seen(seen);

        Record2<Integer, Integer> moved = sql.select(countDistinct(field(name("xmin")).cast(String.class)),
                        countDistinct(field(name("cmin")).cast(String.class)))
                .from(NODES).where(NODES.LAST_SEEN_AT.eq(AT.plusSeconds(5).atOffset(ZoneOffset.UTC))).fetchSingle();
        assertThat(moved.intoArray()).as("transactions, statements of the rows moved").containsExactly(1, 1);
        assertThat(sql.fetchCount(NODES, NODES.LAST_SEEN_AT.eq(AT.plusSeconds(5).atOffset(ZoneOffset.UTC))))
                .isEqualTo(reported.size() / 2);
        assertThat(writers().value1()).as("transactions: the rows not moved are as the report wrote them").isEqualTo(2);
        Map<String, Facts> stored = inventory.facts();
        for (int i = 0; i < reported.size(); i++) {
            Facts facts = reported.get(i);
            assertThat(stored.get(facts.node().name())).isEqualTo(i % 2 == 0
                    ? new Facts(facts.node(), facts.revision(), facts.processes(), AT.plusSeconds(5)) : facts);
        }
        assertThat(sql.select(NODES.NAME, NODES.REPORTED_AT).from(NODES).fetchMap(NODES.NAME, NODES.REPORTED_AT))
                .as("reported_at: when the facts were written, not seen").isEqualTo(writtenAt);
        assertThat(inventory.node("n-none")).isEmpty();
    }

    @Test
    void aBatchWithOneBadReport_recordsNothing_andSaysWhichRuleItBroke() {
        List<Facts> batch = new ArrayList<>(facts(1500, AT));
        batch.add(new Facts(new Node("bad", "", "debian-12"), "", List.of(), AT));

        assertThatThrownBy(() -> inventory.report(batch))
                .isInstanceOf(StoreException.class)
                .hasMessageStartingWith("could not record the facts of 1501 host reports in the inventory database at "
                        + "postgresql://")
                .hasMessageContaining("nodes_address_not_empty");
        assertThat(inventory.nodes()).isEmpty();
    }

    @Test
    void storedFactsThatCannotBeRead_areAStoreExceptionNamingTheNode() {
        inventory.report(facts(1, AT));
        sql.update(NODES).set(NODES.PROCESSES, JSON.valueOf("[{\"name\": \"mesh-host\", \"state\": \"asleep\","
                + " \"since\": \"2026-11-29T21:00:00Z\", \"checks\": 0}]")).execute();

        assertThatThrownBy(inventory::facts)
                .isInstanceOf(StoreException.class)
                .hasMessage("the facts of node n0000, as the inventory database holds them, cannot be read (a process "
                        + "state is running, starting, stopped or failed, not \"asleep\"); they are replaced at the "
                        + "node's next report");
    }
}
