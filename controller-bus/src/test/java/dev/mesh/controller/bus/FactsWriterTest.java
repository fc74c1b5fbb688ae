package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Facts;
import dev.mesh.controller.core.Hands;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.ProcessState;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.memory.ForwardingInventory;
import dev.mesh.controller.core.memory.MemoryInventory;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;
import java.util.stream.Stream;
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

    @Test
    void factsThatRepeatTheWrittenOnes_areWrittenAsTheNodesLastSeenTime_onceAnInterval() throws Exception {
        Hands clock = new Hands(AT);
        inventory.auto = true;
        writer = FactsWriter.start(inventory, clock, WINDOW, Duration.ofMillis(10));
        writer.add(host("n1", AT, "sha256:aa", RUNNING_40));
        settle("m1");

        writer.add(host("n1", AT.plusSeconds(5), "sha256:aa", RUNNING_40));
        writer.add(host("n1", AT.plusSeconds(10), "sha256:aa", RUNNING_40));
        writer.add(host("n2", AT.plusSeconds(5), "", List.of()));
        awaitWritten(3);
        clock.advance(FactsWriter.SIGHTINGS_EVERY);

        // Seen: n1's two repeats are one bulk write of its latest time; the new node n2 written whole.
        assertThat(inventory.seenCalls.poll(10, TimeUnit.SECONDS)).isEqualTo(Map.of("n1", AT.plusSeconds(10)));
        awaitWritten(5);
        assertThat(writer.unchanged()).isEqualTo(2);
        assertThat(recorded("n1", "n2")).containsExactly("n1@" + AT, "n2@" + AT.plusSeconds(5));
        assertThat(inventory.facts("n1")).contains(host("n1", AT.plusSeconds(10), "sha256:aa", RUNNING_40));
        assertThat(inventory.seenCalls).isEmpty();
    }

    @Test
    void factsThatChange_areWrittenWhole_andChecksCountOnlyUpToHealthy() throws Exception {
        inventory.auto = true;
        writer = FactsWriter.start(inventory, new Hands(AT), WINDOW, Duration.ofMillis(10));
        Instant since = AT.minusSeconds(600);
        ProcessState failed = new ProcessState("db", ProcessState.State.FAILED, since, 0);
        List<List<ProcessState>> reports = List.of(
                List.of(new ProcessState("web", ProcessState.State.STARTING, since, 0)),
                List.of(new ProcessState("web", ProcessState.State.RUNNING, since, 0)),
                List.of(new ProcessState("web", ProcessState.State.RUNNING, since, 1)),
                List.of(new ProcessState("web", ProcessState.State.RUNNING, since, 2)),
                List.of(new ProcessState("web", ProcessState.State.RUNNING, since, 3)), // healthy still: a repeat
                List.of(new ProcessState("web", ProcessState.State.RUNNING, since, 9)), // a repeat
                List.of(new ProcessState("web", ProcessState.State.RUNNING, since.plusSeconds(1), 9)), // restarted
                List.of(new ProcessState("web", ProcessState.State.RUNNING, since.plusSeconds(1), 0)), // a check failed
                List.of(new ProcessState("web", ProcessState.State.RUNNING, since.plusSeconds(1), 0), failed));
        for (int i = 0; i < reports.size(); i++) {
            writer.add(host("n1", AT.plusSeconds(5 * i), "sha256:aa", reports.get(i)));
            settle("m" + i);
        }
        writer.add(host("n1", AT.plusSeconds(45), "sha256:bb", reports.getLast())); // a revision applied
        settle("m-revision");
        writer.add(new Facts(new Node("n1", "10.0.0.2", "debian-12"), "sha256:bb", reports.getLast(),
                AT.plusSeconds(50))); // another address
        settle("m-address");

        assertThat(recorded("n1")).as("the facts written whole").containsExactly(Stream.of(0, 5, 10, 15, 30, 35, 40, 45,
                50).map(seconds -> "n1@" + AT.plusSeconds(seconds)).toArray(String[]::new));
        assertThat(writer.unchanged()).isZero();
    }

    @Test
    void repeatedFacts_areWrittenWholeAgain_afterTheRefresh_andWhenTheNodeComesBackFromSilence() throws Exception {
        inventory.auto = true;
        writer = FactsWriter.start(inventory, new Hands(AT), WINDOW, Duration.ofMillis(10));
        long refresh = WrittenFacts.refreshAfter("n1");
        assertThat(refresh).isBetween(WrittenFacts.REFRESH.toNanos() / 2_000, WrittenFacts.REFRESH.toNanos() / 1_000);
        Instant due = AT.plus(refresh, ChronoUnit.MICROS);
        writer.add(host("n1", AT, "sha256:aa", RUNNING_40));
        settle("m1");
        for (Instant at = AT.plusSeconds(5); at.isBefore(due); at = at.plusSeconds(5)) {
            writer.add(host("n1", at, "sha256:aa", RUNNING_40));
        }
        writer.add(host("n1", due, "sha256:aa", RUNNING_40)); // the refresh
        settle("m2");
        Instant back = due.plus(Facts.SILENCE).plusSeconds(1);
        writer.add(host("n1", back, "sha256:aa", RUNNING_40)); // after a silence
        settle("m3");

        assertThat(recorded("n1")).containsExactly("n1@" + AT, "n1@" + due, "n1@" + back);
    }

    @Test
    void sightingsTheStoreRefuses_areKept_andTheLatestWrittenAtTheNextInterval() throws Exception {
        Hands clock = new Hands(AT);
        inventory.auto = true;
        writer = FactsWriter.start(inventory, clock, WINDOW, Duration.ofMillis(10));
        writer.add(host("n1", AT, "", List.of()));
        settle("m1");
        inventory.refuseAll = true;
        writer.add(host("n1", AT.plusSeconds(5), "", List.of()));
        Map<String, Instant> refused = Map.of("n1", AT.plusSeconds(5));
        int intervals = 0;
        do {
            // An interval may pass before the writer took the repeat in: its write then has no sighting, and no call.
            assertThat(intervals++).as("intervals until the sighting's write").isLessThan(100);
            clock.advance(FactsWriter.SIGHTINGS_EVERY);
        } while (!refused.equals(inventory.seenCalls.poll(100, TimeUnit.MILLISECONDS)));

        writer.add(host("n1", AT.plusSeconds(10), "", List.of()));
        inventory.refuseAll = false;
        settle("m2");
        clock.advance(FactsWriter.SIGHTINGS_EVERY);

        assertThat(inventory.seenCalls.poll(10, TimeUnit.SECONDS)).isEqualTo(Map.of("n1", AT.plusSeconds(10)));
        awaitWritten(5);
        assertThat(inventory.facts("n1").orElseThrow().at()).isEqualTo(AT.plusSeconds(10));
        assertThat(writer.unchanged()).isEqualTo(2);
        assertThat(writer.droppedBacklog() + writer.droppedRefused()).isZero();
    }

    @Test
    void factsThatChangeBack_whileTheChangeWaitsForTheStore_areWrittenWhole_notTakenForARepeat() throws Exception {
        writer = FactsWriter.start(inventory, new Hands(AT), WINDOW, Duration.ofMillis(10));
        writer.add(host("n1", AT, "sha256:aa", RUNNING_40));
        inventory.next().accept();
        writer.add(host("n1", AT.plusSeconds(5), "sha256:bb", RUNNING_40));
        GatedInventory.Call changed = inventory.next();
        writer.add(host("n1", AT.plusSeconds(10), "sha256:aa", RUNNING_40)); // back to what the store had

        changed.refuse(); // the store is down: the change is held
        GatedInventory.Call again = inventory.next();
        while (again.facts().size() < 2) {
            again.refuse();
            again = inventory.next();
        }
        assertThat(again.facts()).extracting(Facts::revision).containsExactly("sha256:bb", "sha256:aa");
        again.accept();
        awaitWritten(3);

        assertThat(inventory.facts("n1").orElseThrow().revision()).isEqualTo("sha256:aa");
        assertThat(writer.unchanged()).isZero();
    }

    private static final List<ProcessState> RUNNING_40 = List.of(
            new ProcessState("web", ProcessState.State.RUNNING, Instant.parse("2026-12-01T08:00:00Z"), 40));

    /** @return node {@code name}'s facts at {@code at}, address 10.0.0.1 */
    private static Facts host(String name, Instant at, String revision, List<ProcessState> processes) {
        return new Facts(new Node(name, "10.0.0.1", "debian-12"), revision, processes, at);
    }

    /**
     * Adds the facts of a node never seen before and waits until the store took them: what was added before them was
     * taken in, and written whole if it was to be.
     */
    private void settle(String node) {
        writer.add(host(node, AT, "", List.of()));
        Awaitility.await(node + " written").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
                .until(() -> !recorded(node).isEmpty());
    }

    /** @return the facts of those nodes the store took whole, in order, as {@code node@at} */
    private List<String> recorded(String... nodes) {
        synchronized (inventory.recorded) {
            return inventory.recorded.stream().filter(f -> List.of(nodes).contains(f.node().name()))
                    .map(f -> f.node().name() + "@" + f.at()).toList();
        }
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
        /** Every {@code seen} call's sightings, answered at once: taken, or refused with {@link #refuseAll}. */
        final BlockingQueue<Map<String, Instant>> seenCalls = new LinkedBlockingQueue<>();
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

        @Override
        public void seen(Map<String, Instant> seen) {
            seenCalls.add(Map.copyOf(seen));
            if (refuseAll) {
                throw new VerbException(VerbException.Code.UNAVAILABLE, "the inventory does not answer", "");
            }
            delegate.seen(seen);
        }

        /** @return the next call, taken off the queue, failing after 10 s */
        Call next() throws InterruptedException {
            Call call = calls.poll(10, TimeUnit.SECONDS);
            assertThat(call).as("a report call in 10 s").isNotNull();
            return call;
        }
    }
}
