package dev.mesh.controller.simhost;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A simulated host's configuration: who it is, where the broker and NATS are, and how fast it lives.
 *
 * @param node          the node's name (1 to 63 of {@code a-z 0-9 -}, starting with a letter or digit): its queue is
 *                      {@code mesh-host.<node>}, its facts' subject {@code mesh.nodes.<node>.facts}
 * @param address       the address it reports in its facts
 * @param system        the system it reports in its facts, e.g. {@code debian-12}
 * @param broker        the broker, as the user named like the node
 * @param nats          the NATS server and subject prefix
 * @param factsInterval how often it publishes its facts (docs/design.md section 8: 5 s); positive
 * @param applyTime     how long applying a declaration takes (processes are {@code starting} meanwhile); zero or more
 * @param checkInterval how often a running process passes one more health check; positive
 * @param failing       whether it fails every declaration it applies (reports {@code failed}) — changeable later
 *                      with {@link SimulatedHost#failing(boolean)}
 * @param controller    the controller's broker user: the host accepts a declaration only with this {@code user_id}
 *                      (which the broker checks is the publisher's), as docs/security.md says a host must
 */
public record HostSettings(String node, String address, String system, BrokerSettings broker, NatsSettings nats,
        Duration factsInterval, Duration applyTime, Duration checkInterval, boolean failing, String controller) {

    /** The facts interval of docs/design.md section 8. */
    public static final Duration FACTS_INTERVAL = Duration.ofSeconds(5);
    /** How long applying takes unless told otherwise. */
    public static final Duration APPLY_TIME = Duration.ofSeconds(1);

    private static final Pattern NODE = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");

    /** @throws IllegalArgumentException when a part is blank, the node name is not a node name, or a duration is out of range */
    public HostSettings {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(system, "system");
        Objects.requireNonNull(broker, "broker");
        Objects.requireNonNull(nats, "nats");
        Objects.requireNonNull(factsInterval, "factsInterval");
        Objects.requireNonNull(applyTime, "applyTime");
        Objects.requireNonNull(checkInterval, "checkInterval");
        Objects.requireNonNull(controller, "controller");
        if (!NODE.matcher(node).matches()) {
            throw new IllegalArgumentException("the node name \"" + node + "\" is not 1 to 63 of a-z, 0-9 and -,"
                    + " starting with a letter or digit");
        }
        if (address.isBlank() || system.isBlank()) {
            throw new IllegalArgumentException("node " + node + ": the address and the system must not be blank"
                    + " (address=\"" + address + "\" system=\"" + system + "\")");
        }
        if (factsInterval.isNegative() || factsInterval.isZero() || checkInterval.isNegative() || checkInterval.isZero()) {
            throw new IllegalArgumentException("node " + node + ": the facts interval (" + factsInterval
                    + ") and the check interval (" + checkInterval + ") must be positive");
        }
        if (controller.isBlank()) {
            throw new IllegalArgumentException("node " + node + ": the controller's broker user must not be blank");
        }
        if (applyTime.isNegative()) {
            throw new IllegalArgumentException("node " + node + ": the apply time " + applyTime + " is negative");
        }
    }

    /**
     * @param controller the controller's broker user, whose declarations alone it accepts
     * @return a host publishing facts every 5 s, applying in 1 s, passing a check per facts interval, not failing
     * @throws IllegalArgumentException as the constructor
     */
    public static HostSettings of(String node, String address, String system, BrokerSettings broker, NatsSettings nats,
            String controller) {
        return new HostSettings(node, address, system, broker, nats, FACTS_INTERVAL, APPLY_TIME, FACTS_INTERVAL, false,
                controller);
    }

    /** @return these settings with facts every {@code interval}, and a check passed per interval too */
    public HostSettings withFactsInterval(Duration interval) {
        return new HostSettings(node, address, system, broker, nats, interval, applyTime, interval, failing, controller);
    }

    /** @return these settings with applying taking {@code time} */
    public HostSettings withApplyTime(Duration time) {
        return new HostSettings(node, address, system, broker, nats, factsInterval, time, checkInterval, failing, controller);
    }

    /** @return these settings with a running process passing one more check every {@code interval} */
    public HostSettings withCheckInterval(Duration interval) {
        return new HostSettings(node, address, system, broker, nats, factsInterval, applyTime, interval, failing, controller);
    }

    /** @return these settings failing, or not, every declaration applied */
    public HostSettings withFailing(boolean fail) {
        return new HostSettings(node, address, system, broker, nats, factsInterval, applyTime, checkInterval, fail, controller);
    }
}
