package dev.mesh.controller.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ExchangeThreadsTest {

    private final ExchangeThreads threads = new ExchangeThreads("test-", 2, Duration.ofMillis(100));
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void close() {
        release.countDown();
        threads.close();
    }

    @Test
    void aTaskStillReadingAtTheDeadline_isInterrupted_andItsRequestIsNotRead() throws Exception {
        CompletableFuture<Boolean> readAfter = new CompletableFuture<>();
        threads.execute(() -> {
            try {
                // Stands for a blocking read of a client that sends nothing more.
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                readAfter.complete(threads.requestRead());
            }
        });

        assertThat(readAfter.get(10, TimeUnit.SECONDS)).isFalse();
    }

    @Test
    void aTaskThatReadsItsRequestInTime_isNotInterruptedLater() throws Exception {
        CompletableFuture<String> outcome = new CompletableFuture<>();
        threads.execute(() -> {
            boolean read = threads.requestRead();
            try {
                // Three times past the deadline, as a verb that takes long: no interrupt may come now.
                release.await(300, TimeUnit.MILLISECONDS);
                outcome.complete(read ? "not interrupted" : "the deadline passed first");
            } catch (InterruptedException e) {
                outcome.complete("interrupted");
            }
        });

        assertThat(outcome.get(10, TimeUnit.SECONDS)).isEqualTo("not interrupted");
    }

    @Test
    void beyondMaxOpen_aTaskIsRefusedAtOnce_neverWaitedFor() throws Exception {
        ExchangeThreads patient = new ExchangeThreads("patient-", 2, Duration.ofMinutes(1));
        CountDownLatch started = new CountDownLatch(2);
        for (int i = 0; i < 2; i++) {
            patient.execute(() -> {
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

        assertThatThrownBy(() -> patient.execute(() -> { })).isInstanceOf(RejectedExecutionException.class)
                .hasMessage("all 2 exchanges are open; refusing one more");
        patient.close();
    }
}
