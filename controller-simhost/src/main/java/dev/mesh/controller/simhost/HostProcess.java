package dev.mesh.controller.simhost;

import java.time.Instant;
import java.util.Objects;

/**
 * One process of a simulated host as its facts tell it.
 *
 * @param name   the process's name, from the declaration
 * @param state  {@code starting}, {@code running} or {@code failed}
 * @param since  when it entered that state
 * @param checks how many consecutive health checks it has passed (0 unless {@code running})
 */
public record HostProcess(String name, String state, Instant since, int checks) {

    /** @throws IllegalArgumentException when {@code checks} is negative */
    public HostProcess {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(since, "since");
        if (checks < 0) {
            throw new IllegalArgumentException("process " + name + ": checks " + checks + " is negative");
        }
    }
}
