package dev.mesh.controller.cli;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * What a start opened, closed again in reverse order: the last opened first, going on past
 * failures, so that a start that fails half-way and a stop both leave nothing behind.
 *
 * <p>Not thread-safe: one start, one stop.
 */
public final class Closer implements AutoCloseable {

    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

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
     * Closes everything opened, the last first.
     *
     * @throws CommandException when something did not close, with the first failure as its cause
     *     and the others suppressed
     */
    @Override
    public void close() {
        throwIfAny(closeAll());
    }

    /**
     * @param failures what went wrong while stopping
     * @throws CommandException when there is any, saying the controller did not stop cleanly
     */
    public static void throwIfAny(List<Exception> failures) {
        if (!failures.isEmpty()) {
            CommandException stopped = new CommandException("the controller stopped, but not cleanly: "
                    + failures.getFirst().getMessage(), failures.getFirst());
            failures.stream().skip(1).forEach(stopped::addSuppressed);
            throw stopped;
        }
    }
}
