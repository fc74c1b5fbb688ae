package dev.mesh.controller.bus;

import dev.mesh.controller.core.execute.Execution;
import dev.mesh.controller.core.execute.Executor;
import dev.mesh.controller.core.execute.RepeatedFailures;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executor's rounds on the bus, logged: each declaration delivered to a host's queue and each build order
 * sent; a delivery that fails every round is told once a minute ({@link RepeatedFailures}). Thread-safe as the
 * executor calls it: one round at a time.
 */
public final class LoggedRounds implements Executor.Listener {

    private static final Logger LOG = LoggerFactory.getLogger(LoggedRounds.class);

    private final RepeatedFailures failures = new RepeatedFailures(Clock.systemUTC());

    @Override
    public void round(Execution.Round round) {
        round.delivered().forEach(d -> LOG.info("declaration delivered node={} revision={} epoch={}", d.node(),
                d.revision(), d.epoch()));
        round.sent().forEach(id -> LOG.info("build requested build={}", id));
        round.waiting().forEach((node, what) -> LOG.debug("delivery waits node={} for={}", node, what));
        round.failed().forEach((what, why) -> failures.failed(what).ifPresent(line -> LOG.warn(
                "delivery failed what={} failures={} reason=\"{}\"", what, line.failures(), why)));
    }

    @Override
    public void failed(RuntimeException failure) {
        LOG.warn("round failed reason=\"{}\"", failure.getMessage());
    }
}
