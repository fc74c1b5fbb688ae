package dev.mesh.controller.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.BiFunction;

/**
 * What a start opened, closed again in reverse order: the last opened first, going on past failures, so that a
 * start that fails half-way and a stop both leave nothing behind. Each part that opens several things (the store's
 * ports, the bus, the assembly, the controllers) keeps one, and says in its own failure what did not close
 * ({@link #throwIfAny}).
 *
 * <p>Not thread-safe: one start, one stop; a part that opens and closes from several threads guards it.
 */
public final class Closer {

    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    /** Nothing opened yet. */
    public Closer() {
        // Things are added as they are opened.
    }

    /** @return {@code resource}, to be closed with the others */
    public <T extends AutoCloseable> T open(T resource) {
        opened.push(resource);
        return resource;
    }

    /** Runs {@code action} when closing, in its place in the order. */
    public void onClose(Runnable action) {
        opened.push(action::run);
    }

    /**
     * Closes everything opened, the last first.
     *
     * @return the failures, in the order they happened; empty when all closed cleanly
     */
    public List<Exception> closeAll() {
        List<Exception> failures = new ArrayList<>();
        while (!opened.isEmpty()) {
            try {
                opened.pop().close();
            } catch (Exception e) {
                failures.add(e);
            }
        }
        return failures;
    }

    /**
     * @param failures what went wrong while closing
     * @param failure the exception to throw: given the first failure's message and the first failure, the
     *     others added to it as suppressed
     * @throws RuntimeException {@code failure}'s, when there is any failure
     */
    public static <E extends RuntimeException> void throwIfAny(List<Exception> failures,
            BiFunction<String, Exception, E> failure) {
        if (!failures.isEmpty()) {
            E thrown = failure.apply(failures.getFirst().getMessage(), failures.getFirst());
            failures.stream().skip(1).forEach(thrown::addSuppressed);
            throw thrown;
        }
    }
}
