package dev.mesh.controller.mcp.internal;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The executor of the JDK's HTTP server: each exchange on its own virtual thread, with a deadline for
 * reading its request. The JDK's server reads a request's line and headers on the executor's thread
 * (docs/mcp.md, "Slow clients"), so this executor never makes its caller — the server's one dispatcher
 * thread — wait: at most {@code maxOpen} exchanges at once, and one more is refused, which makes the
 * server close that connection.
 *
 * <p>An exchange's deadline starts when its task starts (the client's first byte has arrived) and ends
 * when the handler calls {@link #requestRead()} on the exchange's thread, having the whole body. A
 * thread still reading when the deadline passes is interrupted: its connection is a blocking
 * {@link java.nio.channels.SocketChannel}, an interruptible channel, so the read fails with
 * {@link java.nio.channels.ClosedByInterruptException} and the connection is closed.
 *
 * <p>Thread-safe.
 */
public final class ExchangeThreads implements Executor, AutoCloseable {

    private final Semaphore open;
    private final int maxOpen;
    private final Duration readTimeout;
    private final ThreadFactory threads;
    private final ScheduledThreadPoolExecutor clock;
    private final Map<Thread, Deadline> reading = new ConcurrentHashMap<>();

    /**
     * @param name the prefix of the threads' names
     * @param maxOpen how many exchanges may be open at once
     * @param readTimeout how long an exchange may take to read its request
     */
    public ExchangeThreads(String name, int maxOpen, Duration readTimeout) {
        this.open = new Semaphore(maxOpen);
        this.maxOpen = maxOpen;
        this.readTimeout = readTimeout;
        this.threads = Thread.ofVirtual().name(name, 0).factory();
        this.clock = new ScheduledThreadPoolExecutor(1, Thread.ofPlatform().name(name + "deadlines").daemon()
                .factory());
        this.clock.setRemoveOnCancelPolicy(true);
    }

    /**
     * Runs the task on a new virtual thread, its request read under the deadline.
     *
     * @throws RejectedExecutionException when {@code maxOpen} exchanges are open, or after {@link #close()}
     */
    @Override
    public void execute(Runnable task) {
        if (!open.tryAcquire()) {
            throw new RejectedExecutionException("all " + maxOpen + " exchanges are open; refusing one more");
        }
        try {
            threads.newThread(() -> run(task)).start();
        } catch (RuntimeException | Error e) {
            open.release();
            throw e;
        }
    }

    private void run(Runnable task) {
        Thread thread = Thread.currentThread();
        Deadline deadline = new Deadline(thread);
        reading.put(thread, deadline);
        try {
            deadline.timer = clock.schedule(deadline::expire, readTimeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // The timer is closed: the server is stopping, and closes this connection with the others.
            reading.remove(thread);
            open.release();
            return;
        }
        try {
            task.run();
        } finally {
            deadline.cancel();
            reading.remove(thread);
            open.release();
        }
    }

    /**
     * Ends the deadline of the calling thread's exchange: its request is read.
     *
     * @return false when the deadline passed first: the thread is interrupted and its connection is
     *     closed, so the exchange is to be abandoned without an answer
     */
    public boolean requestRead() {
        Deadline deadline = reading.get(Thread.currentThread());
        return deadline == null || deadline.cancel();
    }

    /** Stops the deadlines' timer; exchanges still open keep their thread but no longer their deadline. */
    @Override
    public void close() {
        clock.shutdownNow();
    }

    /** One exchange's deadline: met by the exchange's thread or expired by the timer, whichever comes first. */
    private static final class Deadline {
        private final Thread thread;
        private final AtomicBoolean decided = new AtomicBoolean();
        private volatile ScheduledFuture<?> timer;

        Deadline(Thread thread) {
            this.thread = thread;
        }

        /** @return whether it was met, that is whether it had not expired */
        boolean cancel() {
            boolean met = decided.compareAndSet(false, true);
            ScheduledFuture<?> scheduled = timer;
            if (met && scheduled != null) {
                scheduled.cancel(false);
            }
            return met;
        }

        void expire() {
            if (decided.compareAndSet(false, true)) {
                thread.interrupt();
            }
        }
    }
}
