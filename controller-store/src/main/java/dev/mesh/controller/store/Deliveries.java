package dev.mesh.controller.store;

import static dev.mesh.controller.store.internal.schema.inventory.Tables.DELIVERIES;
import static org.jooq.impl.DSL.excluded;

import dev.mesh.controller.core.Delivery;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.jooq.DSLContext;

/**
 * The queries of the {@code deliveries} table (each node's latest delivery of its desired
 * declaration) for {@link PgInventory}, which runs them — recording fenced — and turns their
 * failures into the store's. Stateless, so thread-safe.
 */
final class Deliveries {

    private Deliveries() {
    }

    /** Records the delivery, replacing the node's one before. */
    static int record(DSLContext tx, Delivery delivery) {
        return tx.insertInto(DELIVERIES)
                .set(DELIVERIES.NODE, delivery.node())
                .set(DELIVERIES.REVISION, delivery.revision())
                .set(DELIVERIES.EPOCH, delivery.epoch())
                .set(DELIVERIES.DELIVERED_AT, delivery.at().atOffset(ZoneOffset.UTC))
                .onConflict(DELIVERIES.NODE).doUpdate()
                .set(DELIVERIES.REVISION, excluded(DELIVERIES.REVISION))
                .set(DELIVERIES.EPOCH, excluded(DELIVERIES.EPOCH))
                .set(DELIVERIES.DELIVERED_AT, excluded(DELIVERIES.DELIVERED_AT))
                .execute();
    }

    /** @return each node's latest delivery, by node name */
    static Map<String, Delivery> read(DSLContext db) {
        Map<String, Delivery> deliveries = new HashMap<>();
        db.selectFrom(DELIVERIES).forEach(row -> deliveries.put(row.getNode(),
                new Delivery(row.getNode(), row.getRevision(), row.getEpoch(), row.getDeliveredAt().toInstant())));
        return Map.copyOf(deliveries);
    }
}
