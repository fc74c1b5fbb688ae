package dev.mesh.controller.launcher;

import dev.mesh.controller.store.PgPlanLock;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The store's primary as metrics (docs/operations.md), read from the plan lock when scraped — what {@code status}'s
 * {@code store} shows — and its moves counted as the lock reports them, once each, as the {@code failover} event
 * is published. Thread-safe.
 */
final class StoreMetrics {

    private StoreMetrics() {
    }

    /**
     * Registers the store's metrics.
     *
     * @param registry where
     * @param prefix what every name begins with, the controller's ({@code mesh_controller_})
     * @param lock the plan lock, whose sessions find the primary
     */
    static void register(PrometheusRegistry registry, String prefix, PgPlanLock lock) {
        AtomicLong failovers = new AtomicLong();
        lock.onFailover((from, to) -> failovers.incrementAndGet());
        GaugeWithCallback.builder().name(prefix + "store_primary")
                .help("The PostgreSQL server the plan lock's last session was on (always 1), by its host:port; "
                        + "absent before the first session")
                .labelNames("member").callback(callback -> {
                    String primary = String.valueOf(lock.primary().get("primary"));
                    if (!primary.isEmpty()) {
                        callback.call(1, primary);
                    }
                }).register(registry);
        GaugeWithCallback.builder().name(prefix + "store_synchronous")
                .help("1 when the primary's commits wait for a standby, 0 when not; absent before the first session")
                .callback(callback -> {
                    Map<String, Object> primary = lock.primary();
                    if (primary.get("synchronous") instanceof Boolean synchronous) {
                        callback.call(synchronous ? 1 : 0);
                    }
                }).register(registry);
        GaugeWithCallback.builder().name(prefix + "store_standbys")
                .help("How many standbys stream from the primary, as its lock session found when it opened")
                .callback(callback -> {
                    if (lock.primary().get("standbys") instanceof Number standbys) {
                        callback.call(standbys.doubleValue());
                    }
                }).register(registry);
        CounterWithCallback.builder().name(prefix + "store_failovers_total")
                .help("Times the plan lock found the store's primary on another server than before")
                .callback(callback -> callback.call(failovers.get())).register(registry);
    }
}
