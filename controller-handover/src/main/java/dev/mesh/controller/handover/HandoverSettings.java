package dev.mesh.controller.handover;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every timing of the handover protocol, in one place (docs/handover.md, "Timings"): what the configuration
 * may change, the defaults being the values the protocol's figures in docs/benchmarks.md were measured with.
 * The rules between them are {@link #problems() checked} before a controller starts.
 *
 * @param settle how long a planned release waits for the verbs this controller holds to be acknowledged
 * @param lease how long the active controller may go unseen holding the plan lock before a standby the broker
 *     feeds ends its sessions and takes over (a frozen process)
 * @param leaseRenewal how often the active controller checks its lock, renewing its lease ({@link LeaseRenewal})
 * @param readyWait how long a start waits to be settled (active, or a standby that knows the active one)
 *     before it says it is ready
 * @param holderLookEvery how often that wait reads who holds the lock
 * @param tick how often every controller publishes a tick to the verbs' queue, by which the one the broker
 *     feeds finds out that it is fed
 * @param starvedAfterTicks how many tick periods without a delivery make a fed controller starved
 * @param heartbeat the AMQP heartbeat asked of the broker: a frozen peer's connection is closed after about
 *     two of them
 * @param keepActiveEvery how often a controller alone (the development controller) checks that it is still
 *     active ({@link KeepActive})
 */
public record HandoverSettings(Duration settle, Duration lease, Duration leaseRenewal, Duration readyWait,
        Duration holderLookEvery, Duration tick, int starvedAfterTicks, Duration heartbeat,
        Duration keepActiveEvery) {

    /** The timings the protocol's figures were measured with. */
    public static final HandoverSettings DEFAULTS = new HandoverSettings(Duration.ofSeconds(5), Duration.ofSeconds(3),
            Duration.ofSeconds(1), Duration.ofMillis(1_500), Duration.ofMillis(100), Duration.ofMillis(250), 3,
            Duration.ofSeconds(1), Duration.ofSeconds(1));

    /** The settings' names, as {@link #problems} names them: one per component, in their order. */
    public static final List<String> NAMES = List.of("settle", "lease", "lease-renewal", "ready-wait",
            "holder-look-every", "tick", "starved-after-ticks", "heartbeat", "keep-active-every");

    private static final Pattern DURATION = Pattern.compile("([0-9]{1,9})(ms|s)");

    /** Checks that no part is missing; the rules between them are {@link #problems()}'s. */
    public HandoverSettings {
        Objects.requireNonNull(settle, "settle");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(leaseRenewal, "leaseRenewal");
        Objects.requireNonNull(readyWait, "readyWait");
        Objects.requireNonNull(holderLookEvery, "holderLookEvery");
        Objects.requireNonNull(tick, "tick");
        Objects.requireNonNull(heartbeat, "heartbeat");
        Objects.requireNonNull(keepActiveEvery, "keepActiveEvery");
    }

    /** @return how long without a delivery makes a fed controller starved: {@code tick × starvedAfterTicks} */
    public Duration starvedAfter() {
        return tick.multipliedBy(starvedAfterTicks);
    }

    /**
     * What is wrong with these settings, each problem naming the settings by {@link #NAMES} and saying how to
     * fix it. The rules:
     * <ul>
     *   <li>every interval is positive; {@code settle} and {@code ready-wait} may be zero; {@code heartbeat} is
     *       whole seconds;
     *   <li>{@code lease} is more than twice {@code lease-renewal}: one renewal late must not let a standby take
     *       the lock from a controller that runs;
     *   <li>{@code starved-after-ticks} is at least 2: one tick lost on its way must not starve the active one;
     *   <li>{@code heartbeat} is shorter than {@code lease}: a frozen controller's connection, and with it its
     *       consumer, must be gone before a successor may take its lock, so that the broker feeds the successor.
     * </ul>
     *
     * @param named how a setting is called where it was set, e.g. {@code MESH_HANDOVER_LEASE}
     * @return the problems, none when the settings hold together
     */
    public List<String> problems(UnaryOperator<String> named) {
        List<String> problems = new ArrayList<>();
        positive(problems, named, "lease", lease);
        positive(problems, named, "lease-renewal", leaseRenewal);
        positive(problems, named, "holder-look-every", holderLookEvery);
        positive(problems, named, "tick", tick);
        positive(problems, named, "heartbeat", heartbeat);
        positive(problems, named, "keep-active-every", keepActiveEvery);
        notNegative(problems, named, "settle", settle);
        notNegative(problems, named, "ready-wait", readyWait);
        if (!problems.isEmpty()) {
            return problems;
        }
        if (heartbeat.toMillis() % 1_000 != 0) {
            problems.add(named.apply("heartbeat") + " (" + text(heartbeat) + ") must be whole seconds, AMQP's unit; "
                    + "e.g. " + text(DEFAULTS.heartbeat));
        }
        if (lease.compareTo(leaseRenewal.multipliedBy(2)) <= 0) {
            problems.add(named.apply("lease") + " (" + text(lease) + ") must be more than twice "
                    + named.apply("lease-renewal") + " (" + text(leaseRenewal) + "): one late renewal would let a "
                    + "standby take over from a controller that runs; raise " + named.apply("lease") + " above "
                    + text(leaseRenewal.multipliedBy(2)) + " or renew more often");
        }
        if (starvedAfterTicks < 2) {
            problems.add(named.apply("starved-after-ticks") + " (" + starvedAfterTicks + ") must be 2 or more: "
                    + "one tick lost on its way would make the active controller let go; set it to 2 or more "
                    + "(the default is " + DEFAULTS.starvedAfterTicks + ")");
        }
        if (heartbeat.compareTo(lease) >= 0) {
            problems.add(named.apply("heartbeat") + " (" + text(heartbeat) + ") must be shorter than "
                    + named.apply("lease") + " (" + text(lease) + "): a frozen controller's connection must be "
                    + "closed before its lease ends, or the broker goes on feeding it after a standby took the "
                    + "lock; lower " + named.apply("heartbeat") + " or raise " + named.apply("lease"));
        }
        return List.copyOf(problems);
    }

    /**
     * @param named how a setting is called where it was set
     * @return these settings
     * @throws IllegalArgumentException with every {@link #problems} when there is one
     */
    public HandoverSettings checked(UnaryOperator<String> named) {
        List<String> problems = problems(named);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", problems));
        }
        return this;
    }

    /**
     * @param name one of {@link #NAMES}
     * @param value its value as written: a duration ({@code 250ms}, {@code 3s}) or, for
     *     {@code starved-after-ticks}, a count
     * @return these settings with that one changed; the rules between them are not checked here
     * @throws IllegalArgumentException when the name is not one of {@link #NAMES} or the value is not of its
     *     form, saying which forms are
     */
    public HandoverSettings with(String name, String value) {
        Objects.requireNonNull(value, "value");
        if ("starved-after-ticks".equals(name)) {
            if (!value.matches("[0-9]{1,4}")) {
                throw new IllegalArgumentException("'" + value + "' is not a count of ticks; give a whole number, "
                        + "e.g. " + DEFAULTS.starvedAfterTicks);
            }
            return new HandoverSettings(settle, lease, leaseRenewal, readyWait, holderLookEvery, tick,
                    Integer.parseInt(value), heartbeat, keepActiveEvery);
        }
        if (!NAMES.contains(name)) {
            throw new IllegalArgumentException("no handover setting is named '" + name + "'; they are "
                    + String.join(", ", NAMES));
        }
        Matcher matcher = DURATION.matcher(value);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("'" + value + "' is not a duration; give milliseconds or seconds, "
                    + "e.g. 250ms or " + text(DEFAULTS.of(name)));
        }
        long amount = Long.parseLong(matcher.group(1));
        Duration d = matcher.group(2).equals("ms") ? Duration.ofMillis(amount) : Duration.ofSeconds(amount);
        return new HandoverSettings(
                name.equals("settle") ? d : settle,
                name.equals("lease") ? d : lease,
                name.equals("lease-renewal") ? d : leaseRenewal,
                name.equals("ready-wait") ? d : readyWait,
                name.equals("holder-look-every") ? d : holderLookEvery,
                name.equals("tick") ? d : tick,
                starvedAfterTicks,
                name.equals("heartbeat") ? d : heartbeat,
                name.equals("keep-active-every") ? d : keepActiveEvery);
    }

    /** @return a duration as the settings are written: {@code 250ms}, {@code 3s}, {@code 1500ms} */
    public static String text(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1_000 == 0 ? millis / 1_000 + "s" : millis + "ms";
    }

    private static void positive(List<String> problems, UnaryOperator<String> named, String name,
            Duration value) {
        if (value.isNegative() || value.isZero()) {
            problems.add(named.apply(name) + " (" + text(value) + ") must be more than 0; e.g. "
                    + text(DEFAULTS.of(name)));
        }
    }

    private static void notNegative(List<String> problems, UnaryOperator<String> named,
            String name, Duration value) {
        if (value.isNegative()) {
            problems.add(named.apply(name) + " (" + text(value) + ") must be 0 or more; e.g. "
                    + text(DEFAULTS.of(name)));
        }
    }

    private Duration of(String name) {
        return switch (name) {
            case "settle" -> settle;
            case "lease" -> lease;
            case "lease-renewal" -> leaseRenewal;
            case "ready-wait" -> readyWait;
            case "holder-look-every" -> holderLookEvery;
            case "tick" -> tick;
            case "heartbeat" -> heartbeat;
            case "keep-active-every" -> keepActiveEvery;
            default -> throw new IllegalArgumentException("no duration named " + name);
        };
    }
}
