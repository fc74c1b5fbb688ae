package dev.mesh.controller.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting in a test for a condition on a running system: asked every 200 ms until it holds, or failing. */
public final class Poll {

    private static final long EVERY_MS = 200;

    private Poll() {
    }

    /**
     * Returns once {@code done} holds.
     *
     * @param what what is waited for, for the failure
     * @param patience how long at most
     * @param done the condition
     * @throws AssertionError when it does not hold within {@code patience}
     */
    public static void until(String what, Duration patience, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + patience.toSeconds() + " s: " + what);
            }
            Thread.sleep(EVERY_MS);
        }
    }
}
