package dev.mesh.controller.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.Role;
import dev.mesh.controller.core.VerbCalls;
import dev.mesh.controller.core.memory.LocalLifecycle;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The registry's snapshots are read here; MetricsIT reads the text a scraper gets with a real parser. */
class PrometheusMetricsTest {

    private final Lifecycle lifecycle = LocalLifecycle.active();
    private final PrometheusMetrics metrics = new PrometheusMetrics(lifecycle);

    private MetricSnapshot metric(String name) {
        MetricSnapshots all = metrics.registry().scrape();
        return all.stream().filter(m -> m.getMetadata().getPrometheusName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no metric " + name));
    }

    @Test
    void called_countsByVerbAndOutcome_andTheTallyReadsTheSameCounter() {
        metrics.called("status", VerbCalls.OK, Duration.ofMillis(1));
        metrics.called("status", VerbCalls.OK, Duration.ofMillis(2));
        metrics.called("node", "not-found", Duration.ofMillis(3));

        CounterSnapshot verbs = (CounterSnapshot) metric("mesh_controller_verbs");
        assertThat(verbs.getDataPoints()).anySatisfy(point -> {
            assertThat(point.getLabels().get("verb")).isEqualTo("status");
            assertThat(point.getLabels().get("outcome")).isEqualTo("ok");
            assertThat(point.getValue()).isEqualTo(2);
        });
        assertThat(metrics.tally()).hasValue(new VerbCalls.Tally(3, 1));
    }

    @Test
    void called_observesTheDurationInSeconds_inTheVerbsHistogram() {
        metrics.called("nodes", VerbCalls.OK, Duration.ofMillis(3));

        HistogramSnapshot durations = (HistogramSnapshot) metric("mesh_controller_verb_duration_seconds");
        assertThat(durations.getDataPoints()).singleElement().satisfies(point -> {
            assertThat(point.getCount()).isEqualTo(1);
            assertThat(point.getSum()).isEqualTo(0.003);
            assertThat(point.getClassicBuckets().size()).isEqualTo(PrometheusMetrics.VERB_BUCKETS.length + 1);
        });
    }

    @Test
    void role_isOneForTheRoleHeld_andEpochIsTheLifecycles() {
        GaugeSnapshot role = (GaugeSnapshot) metric("mesh_controller_role");
        assertThat(role.getDataPoints()).anySatisfy(point -> {
            assertThat(point.getLabels().get("role")).isEqualTo("active");
            assertThat(point.getValue()).isEqualTo(1);
        });
        assertThat(role.getDataPoints()).filteredOn(point -> point.getValue() == 0)
                .as("standby, releasing, stopped").hasSize(Role.values().length - 1);
        GaugeSnapshot epoch = (GaugeSnapshot) metric("mesh_controller_epoch");
        assertThat(epoch.getDataPoints()).singleElement()
                .satisfies(point -> assertThat(point.getValue()).isEqualTo(lifecycle.status().epoch()));
    }

    @Test
    void handoverGap_afterAFirstTaking_isAbsent_andLockWaitIsThere() {
        assertThat(((GaugeSnapshot) metric("mesh_controller_handover_gap_seconds")).getDataPoints()).isEmpty();
        assertThat(((GaugeSnapshot) metric("mesh_controller_lock_wait_seconds")).getDataPoints()).hasSize(1);
    }

    @Test
    void exposition_isTheTextFormat004() {
        metrics.called("status", VerbCalls.OK, Duration.ofMillis(1));

        assertThat(metrics.exposition().contentType()).startsWith("text/plain; version=0.0.4");
        String text = new String(metrics.exposition().body().get(), StandardCharsets.UTF_8);
        assertThat(text.lines()).contains("# TYPE mesh_controller_verbs_total counter");
    }
}
