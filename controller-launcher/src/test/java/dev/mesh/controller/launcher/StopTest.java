package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.cli.CommandException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link Stop} without signals (installing handlers would change how the test JVM stops): the stop is
 * asked for once, and the controller closed exactly once, whoever asks.
 */
class StopTest {

    private final StringWriter err = new StringWriter();

    @Test
    void request_secondTime_keepsTheFirst_andAwaitReturnsIt() throws InterruptedException {
        Stop stop = new Stop(() -> { }, new PrintWriter(err));

        stop.request("TERM");
        stop.request("INT");

        assertThat(stop.await()).isEqualTo("TERM");
        assertThat(stop.await()).as("still asked").isEqualTo("TERM");
    }

    @Test
    void close_twice_closesTheControllerOnce() {
        AtomicInteger closes = new AtomicInteger();
        Stop stop = new Stop(closes::incrementAndGet, new PrintWriter(err));

        stop.close();
        stop.close();

        assertThat(closes).hasValue(1);
    }

    @Test
    void close_thatFails_throwsToTheCallerThatClosed_andTheNextCallDoesNothing() {
        AtomicInteger closes = new AtomicInteger();
        Stop stop = new Stop(() -> {
            closes.incrementAndGet();
            throw new CommandException("the controller stopped, but not cleanly: verbs were still held");
        }, new PrintWriter(err));

        assertThatThrownBy(stop::close).isInstanceOf(CommandException.class)
                .hasMessage("the controller stopped, but not cleanly: verbs were still held");
        stop.close();

        assertThat(closes).hasValue(1);
    }

    @Test
    void close_whileAnotherCloses_waitsForIt_andDoesNotCloseAgain() throws InterruptedException {
        CountDownLatch closing = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        AtomicInteger closes = new AtomicInteger();
        Stop stop = new Stop(() -> {
            closes.incrementAndGet();
            closing.countDown();
            try {
                finish.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, new PrintWriter(err));
        Thread first = Thread.ofPlatform().start(stop::close);
        closing.await();

        Thread second = Thread.ofPlatform().start(stop::close);
        while (second.getState() != Thread.State.BLOCKED && second.isAlive()) {
            Thread.onSpinWait();
        }
        assertThat(second.getState()).as("waits for the close under way").isEqualTo(Thread.State.BLOCKED);
        finish.countDown();
        first.join();
        second.join();

        assertThat(closes).hasValue(1);
    }
}
