package dev.mesh.controller.launcher;

import dev.mesh.controller.cli.Failures;
import java.io.PrintWriter;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandleProxies;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How {@code serve} ends (docs/design.md section 10: a planned release is the normal way for it to end).
 * SIGTERM and SIGINT only ask: their handler wakes the thread in {@link #await()}, which then
 * {@link #close() closes} the controller and lets {@code serve} return its exit code, 0 when the
 * release was clean. A shutdown hook is the safety net for the other ways the JVM is asked to stop
 * (SIGHUP, {@code System.exit} elsewhere): it closes the controller unless that was done, and waits
 * for a close under way; the JVM then exits with the status of what stopped it.
 *
 * <p>Thread-safe: the controller is closed exactly once, by whichever of the main thread and the hook
 * comes first; the other waits for it. A second signal while closing asks nothing more.
 */
final class Stop {

    private static final Logger LOG = LoggerFactory.getLogger(Stop.class);
    /** The signals that ask for the planned release; the JVM's own handlers exit 143 and 130 instead. */
    static final List<String> SIGNALS = List.of("TERM", "INT");

    private final Runnable close;
    private final PrintWriter err;
    private final CountDownLatch requested = new CountDownLatch(1);
    private final AtomicReference<String> reason = new AtomicReference<>();
    /** Guarded by {@code this}. */
    private boolean closed;

    Stop(Runnable close, PrintWriter err) {
        this.close = Objects.requireNonNull(close, "close");
        this.err = Objects.requireNonNull(err, "err");
    }

    /**
     * Handles {@link #SIGNALS} and adds the shutdown hook, for a controller that now serves.
     *
     * @param close closes the controller; throws when it did not stop cleanly
     * @param err where the hook writes why a close it made failed
     * @return the stop, to {@link #await()}
     */
    static Stop install(Runnable close, PrintWriter err) {
        Stop stop = new Stop(close, err);
        Runtime.getRuntime().addShutdownHook(new Thread(stop::closeFromHook, "mesh-controller-stop"));
        handle(SIGNALS, stop::request);
        return stop;
    }

    /** Asks for the stop; what a signal's handler calls. Does nothing the second time. Never blocks. */
    void request(String why) {
        if (reason.compareAndSet(null, Objects.requireNonNull(why, "why"))) {
            requested.countDown();
        }
    }

    /**
     * Waits until the stop is asked for.
     *
     * @return what asked, such as {@code TERM}
     * @throws InterruptedException when the waiting thread is interrupted
     */
    String await() throws InterruptedException {
        requested.await();
        return reason.get();
    }

    /**
     * Closes the controller, unless that was done; waits for a close under way.
     *
     * @throws RuntimeException what the controller's close threw, to the caller that made the close
     */
    synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        close.run();
    }

    /** The JVM stops for another reason than the signals: close, and say so when that failed. */
    private void closeFromHook() {
        try {
            close();
        } catch (RuntimeException e) {
            // No exit code to give any more: the JVM exits with the status of what stopped it.
            err.println("mesh-controller: " + Failures.line(e));
            err.flush();
        }
    }

    /**
     * Hands the signals to {@code onSignal}, with their names, through {@code sun.misc.Signal} of
     * {@code jdk.unsupported}, the JDK's only way to handle a signal. It is reached through method
     * handles because javac's warning about that "internal proprietary API" cannot be turned off
     * under {@code --release} and the build's {@code -Werror}. When the JVM refuses (run with
     * {@code -Xrs}, or without {@code jdk.unsupported}), the JVM's own handlers stay: the signals
     * still stop the controller, through the shutdown hook, but the exit code is the signal's.
     */
    private static void handle(List<String> signals, Consumer<String> onSignal) {
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handler = Class.forName("sun.misc.SignalHandler");
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            MethodHandle named = lookup.findConstructor(signal, MethodType.methodType(void.class, String.class));
            MethodHandle handle = lookup.findStatic(signal, "handle", MethodType.methodType(handler, signal, handler));
            MethodHandle name = lookup.findVirtual(signal, "getName", MethodType.methodType(String.class));
            MethodHandle accept = lookup.findVirtual(Consumer.class, "accept",
                    MethodType.methodType(void.class, Object.class)).bindTo(onSignal)
                    .asType(MethodType.methodType(void.class, String.class));
            Object handlerOfAll = MethodHandleProxies.asInterfaceInstance(handler,
                    MethodHandles.filterArguments(accept, 0, name));
            for (String each : signals) {
                handle.invoke(named.invoke(each), handlerOfAll);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("stop signals not handled signals={} reason=\"{}\" (they still stop the controller, "
                    + "with the signal's exit code)", signals, e.toString());
        } catch (Error e) {
            throw e;
        } catch (Throwable e) {
            // invoke declares Throwable; neither the constructor nor handle throws a checked exception.
            throw new IllegalStateException("sun.misc.Signal threw " + e, e);
        }
    }
}
