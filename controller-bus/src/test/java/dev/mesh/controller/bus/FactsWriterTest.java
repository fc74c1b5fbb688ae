package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.memory.ForwardingInventory;
import dev.mesh.controller.core.memory.MemoryInventory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The facts writer on core's in-memory inventory behind a gate the test opens call by call: each {@code report}
 * waits until the test accepts or refuses it (as a store that is down refuses), so the writer's thread is
 * driven without sleeping. The batch window is short; the retry pause is short, or an hour where only {@code
 * close()} may write again.
 */
class FactsWriterTest {

    private static final Instant AT = Instant.parse("2026-12-01T10:00:00Z");
    private static final Duration WINDOW = Duration.ofMillis(10);

    private final GatedInventory inventory = new GatedInventory();
    private FactsWriter writer;

    @AfterEach
    void close() {
        inventory.auto = true;
        writer.close();
    }

    @Test
    void batchTheStoreRefuses_isHeld_andTriedAgain_withWhatArrivedSince() throws Exception {
        writer = FactsWriter.start(inventory, Controllers.CLOCK, WINDOW, Duration.ofMillis(10));
        writer.add(facts(1));
        writer.add(facts(2));
        GatedInventory.Call first = inventory.next();
        writer.add(facts(3));

        first.refuse();
        // A batch of more than one is split to find a fact the store refuses: each alone refused too, nothing taken —
        // the store is down, and the batch held.
        GatedInventory.Call second = inventory.next();
        while (second.facts().size() < 3) {
            second.refuse();
            second = inventory.next();
        }
        assertThat(second.facts()).as("the held batch first, then what arrived since, in order")
                .containsExactly(facts(1), facts(2), facts(3));
        second.accept();
        writer.close();
        assertThat(writer.written()).isEqualTo(3);
        assertThat(inventory.recorded).containsExactly(facts(1), facts(2), facts(3));
        assertThat(writer.droppedBacklog()).isZero();
    }

    @Test
    void aFactTheStoreRefusesAlone_isDroppedAndCounted_andTheOthersOfItsBatchAreWritten() throws Exception {
        // Injected: a store that refuses any write holding facts(3) (as PostgreSQL refused a name over its column).
        inventory.poison = facts(3);
        inventory.auto = true;
        writer = FactsWriter.start(inventory, Controllers.CLOCK, Duration.ofMillis(200), Duration.ofMillis(10));
        for (int i = 1; i <= 8; i++) {
            writer.add(facts(i));
        }
        awaitWritten(7);

        // Seen: the seven others recorded, facts(3) dropped and counted, and the split cost a few calls, not one per fact.
        assertThat(inventory.recorded).containsExactlyInAnyOrder(facts(1), facts(2), facts(4), facts(5), facts(6),
                facts(7), facts(8));
        assertThat(writer.written()).isEqualTo(7);
        assertThat(writer.droppedRefused()).isEqualTo(1);
        assertThat(inventory.calls.size()).isLessThanOrEqualTo(8);
    }

    @Test
    void twoFactsTheStoreRefusesAtTheBatchsHead_doNotMakeItLookDown_forEver() throws Exception {
        inventory.poison = facts(1);
        inventory.poison2 = facts(2);
        inventory.auto = true;
        writer = FactsWriter.start(inventory, Controllers.CLOCK, Duration.ofMillis(200), Duration.ofMillis(10));
        for (int i = 1; i <= 4; i++) {
            writer.add(facts(i));
        }

        // The first try takes the two for the store's failure and moves them last; the next finds them out.
        awaitWritten(2);
        assertThat(writer.droppedRefused()).isEqualTo(2);
        assertThat(inventory.recorded).containsExactlyInAnyOrder(facts(3), facts(4));
    }

    @Test
    void backlogBound_dropsTheNewest_andCountsThem() throws Exception {
        writer = FactsWriter.start(inventory, Controllers.CLOCK, WINDOW, Duration.ofMillis(10));
        writer.add(facts(0));
        GatedInventory.Call stuck = inventory.next();

        // The store does not answer: the writer is stuck in its call while 10,005 more facts arrive.
        IntStream.rangeClosed(1, FactsWriter.MAX_HELD + 5).forEach(i -> writer.add(facts(i)));

        assertThat(writer.droppedBacklog()).as("the 5 past the bound of 10,000").isEqualTo(5);
        inventory.auto = true;
        stuck.accept();
        writer.close();
        assertThat(writer.written()).isEqualTo(1 + FactsWriter.MAX_HELD);
        assertThat(inventory.recorded).as("the newest dropped, every older one written")
                .containsExactlyElementsOf(IntStream.rangeClosed(0, FactsWriter.MAX_HELD).mapToObj(
                        FactsWriterTest::facts).toList());
    }

    @Test
    void close_writesWhatWasHeld_onceMore() throws Exception {
        writer = FactsWriter.start(inventory, Controllers.CLOCK, WINDOW, Duration.ofHours(1));
        writer.add(facts(1));
        GatedInventory.Call first = inventory.next();
        writer.add(facts(2));
        first.refuse();
        inventory.auto = true;

        writer.close();

        assertThat(inventory.calls).as("one more call, on close").hasSize(1);
        assertThat(inventory.calls.poll().facts()).containsExactly(facts(1), facts(2));
        assertThat(writer.written()).isEqualTo(2);
    }

    @Test
    void close_whileTheStoreStillRefuses_triesOnce_andWritesNothing() throws Exception {
        writer = FactsWriter.start(inventory, Controllers.CLOCK, WINDOW, Duration.ofHours(1));
        writer.add(facts(1));
        inventory.next().refuse();
        inventory.refuseAll = true;
        inventory.auto = true;

        writer.close();

        assertThat(inventory.calls).as("tried once more, on close").hasSize(1);
        assertThat(writer.written()).isZero();
        assertThat(inventory.recorded).isEmpty();
    }

    private void awaitWritten(long count) {
        Awaitility.await(count + " written").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                .until(() -> writer.written() >= count);
        assertThat(writer.written()).isEqualTo(count);
    }

    /** @return node {@code n<i>}'s facts, equal for equal {@code i} */
    private static Facts facts(int i) {
        return new Facts(new Node("n" + i, "10.0.0.1", "debian-12"), "", List.of(), AT);
    }

    /** Core's in-memory inventory whose {@code report} waits for the test's answer, unless answered by itself. */
    private static final class GatedInventory extends ForwardingInventory {

        /** One {@code report} call: the facts it carried, and the test's answer. */
        record Call(List<Facts> facts, CompletableFuture<Boolean> answer) {
            void accept() {
                answer.complete(true);
            }

            void refuse() {
                answer.complete(false);
            }
        }

        final BlockingQueue<Call> calls = new LinkedBlockingQueue<>();
        /** Every fact accepted, in the order written. */
        final List<Facts> recorded = new ArrayList<>();
        /** Whether calls are answered at once (accepted, or refused with {@link #refuseAll}) rather than by the test. */
        volatile boolean auto;
        volatile boolean refuseAll;
        /** Facts whose write the store refuses, alone or in a batch; none when null. */
        volatile Facts poison;
        volatile Facts poison2;

        GatedInventory() {
            super(new MemoryInventory());
        }

        @Override
        public void report(Collection<Facts> facts) {
            Call call = new Call(List.copyOf(facts), new CompletableFuture<>());
            calls.add(call);
            if (auto) {
                call.answer.complete(!refuseAll && (poison == null || !facts.contains(poison))
                        && (poison2 == null || !facts.contains(poison2)));
            }
            boolean accepted;
            try {
                accepted = call.answer.get(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for the test's answer", e);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("the test did not answer the report call in 10 s", e);
            }
            if (!accepted) {
                throw new VerbException(VerbException.Code.UNAVAILABLE, "the inventory does not answer", "");
            }
            synchronized (recorded) {
                recorded.addAll(facts);
            }
            delegate.report(facts);
        }

        /** @return the next call, taken off the queue, failing after 10 s */
        Call next() throws InterruptedException {
            Call call = calls.poll(10, TimeUnit.SECONDS);
            assertThat(call).as("a report call in 10 s").isNotNull();
            return call;
        }
    }
}
