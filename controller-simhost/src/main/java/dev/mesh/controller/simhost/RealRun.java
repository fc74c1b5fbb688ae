package dev.mesh.controller.simhost;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * Which declared processes a lab host runs for real, and where: the processes of these modules are
 * started as the declaration says — the archive its artifact names got from its location, checked
 * against its digest, unpacked into a directory per version under {@code home} — and every other
 * process stays simulated.
 *
 * @param modules the modules whose processes run for real; empty for a host that runs nothing
 * @param home where archives, unpacked versions, ready files and the processes' output go
 * @param readyTimeout how long a new process may take to be ready (its ready file written, or, for a
 *     process not restarted with overlap, alive for a check interval)
 * @param stopTimeout how long a process may take to exit after SIGTERM before it is killed
 * @param prepareTimeout how long a preparation may take
 */
public record RealRun(Set<String> modules, Path home, Duration readyTimeout, Duration stopTimeout,
        Duration prepareTimeout) {

    /** A host that runs nothing for real. */
    public static final RealRun NONE = new RealRun(Set.of(), Path.of("."), Duration.ofSeconds(1),
            Duration.ofSeconds(1), Duration.ofSeconds(1));

    /**
     * Checks and copies the parts.
     *
     * @throws IllegalArgumentException when a duration is not positive
     */
    public RealRun {
        modules = Set.copyOf(modules);
        Objects.requireNonNull(home, "home");
        for (Duration duration : new Duration[] {readyTimeout, stopTimeout, prepareTimeout}) {
            if (duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException("the timeouts of a real run must be positive, not " + duration);
            }
        }
    }

    /**
     * @param home where archives, versions, ready files and output go
     * @param modules the modules whose processes run for real
     * @return a real run waiting 60 s for readiness and a preparation, and 30 s for an exit
     */
    public static RealRun of(Path home, String... modules) {
        return new RealRun(Set.of(modules), home, Duration.ofSeconds(60), Duration.ofSeconds(30),
                Duration.ofSeconds(60));
    }

    /** @return whether the processes of {@code module} run for real */
    public boolean runs(String module) {
        return modules.contains(module);
    }
}
