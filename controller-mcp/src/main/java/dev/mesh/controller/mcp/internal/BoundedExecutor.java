package dev.mesh.controller.mcp.internal;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;

/**
 * Runs each task on its own virtual thread, at most {@code limit} at once: when all are busy,
 * {@link #execute} waits for one to finish, so the HTTP server stops taking requests rather than
 * piling them up.
 *
 * <p>No longer {@code McpHttpServer}'s executor: waiting in {@link #execute} stops the JDK server's one
 * dispatcher thread, so stalled clients froze it ({@link ExchangeThreads} replaces it, docs/mcp.md
 * "Slow clients"). Kept only for controller-bench's {@code HttpBenchmark}, which should move to
 * {@link ExchangeThreads}.
 */
public final class BoundedExecutor implements Executor {

    private final Semaphore permits;
    private final ThreadFactory threads;

    /**
     * @param name the prefix of the threads' names
     * @param limit how many tasks run at once
     */
    public BoundedExecutor(String name, int limit) {
        this.permits = new Semaphore(limit);
        this.threads = Thread.ofVirtual().name(name, 0).factory();
    }

    @Override
    public void execute(Runnable task) {
        try {
            permits.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RejectedExecutionException("interrupted while waiting for a free slot", e);
        }
        try {
            threads.newThread(() -> {
                try {
                    task.run();
                } finally {
                    permits.release();
                }
            }).start();
        } catch (RuntimeException | Error e) {
            permits.release();
            throw e;
        }
    }
}
