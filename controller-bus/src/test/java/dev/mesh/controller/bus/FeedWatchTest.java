package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.handover.FeedRule;
import dev.mesh.controller.handover.HandoverSettings;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The watch's own part: what it tells its listener, in which order, on a thread of its own. What the deliveries
 * mean is the handover's rule ({@code FeedRuleTest} in controller-handover), run here on a clock the test moves.
 */
class FeedWatchTest {

    private static final long STARVED_AFTER_MS = HandoverSettings.DEFAULTS.starvedAfter().toMillis();

    private final AtomicLong now = new AtomicLong(1_000);
    private final List<String> told = new CopyOnWriteArrayList<>();
    private final FeedWatch watch = new FeedWatch(new Feeding() {
        @Override
        public void fed() {
            told.add("fed");
        }

        @Override
        public void starved() {
            told.add("starved");
        }
    }, FeedRule.of(HandoverSettings.DEFAULTS, now::get), "q");

    private FeedRule rule() {
        return FeedRule.of(HandoverSettings.DEFAULTS, now::get);
    }

    private List<String> toldAfterClose() throws InterruptedException {
        closeAndDrain(watch);
        return told;
    }

    /** Closes, and waits until the notifier ran everything that was told before it stopped. */
    private static void closeAndDrain(FeedWatch watch) throws InterruptedException {
        watch.close();
        assertThat(watch.drained(Duration.ofSeconds(5))).as("the listener told everything").isTrue();
    }

    @Test
    void fedAtTheFirstDelivery_starvedWhenTheRuleSays_eachToldOnce_inOrder() throws Exception {
        watch.arrived();
        watch.handled();
        awaitTold(told, 1);
        now.addAndGet(STARVED_AFTER_MS);
        watch.check();
        assertThat(watch.fed()).as("not yet: exactly three periods").isTrue();
        now.addAndGet(1);
        watch.check();
        assertThat(watch.fed()).isFalse();
        awaitTold(told, 2);
        watch.arrived();
        watch.handled();
        assertThat(watch.fed()).isTrue();
        awaitTold(told, 3);

        assertThat(toldAfterClose()).containsExactly("fed", "starved", "fed", "starved");
    }

    @Test
    void stillFed_toldAtEveryCheckWhileFed_inOrderWithFedAndStarved() throws Exception {
        List<String> all = new CopyOnWriteArrayList<>();
        FeedWatch still = new FeedWatch(new Feeding() {
            @Override
            public void fed() {
                all.add("fed");
            }

            @Override
            public void stillFed() {
                all.add("still");
            }

            @Override
            public void starved() {
                all.add("starved");
            }
        }, rule(), "q");
        still.check();
        still.arrived();
        still.handled();
        awaitTold(all, 1);
        still.check();
        still.check();
        awaitTold(all, 3);
        now.addAndGet(STARVED_AFTER_MS + 1);
        still.check();
        still.check();
        closeAndDrain(still);

        assertThat(all).containsExactly("fed", "still", "still", "starved");
    }

    @Test
    void stopped_isStarvedOnce_andNothingWhenNotFed() throws Exception {
        watch.stopped("x");
        watch.arrived();
        watch.handled();
        awaitTold(told, 1);
        watch.stopped("stopped consuming");
        watch.stopped("again");
        assertThat(toldAfterClose()).containsExactly("fed", "starved");
    }

    @Test
    void aStarvedUndoneWhileTheListenerWasBusy_isNotTold_theListenerHearsWhatIsNow() throws Exception {
        List<String> heard = new CopyOnWriteArrayList<>();
        CountDownLatch activating = new CountDownLatch(1);
        CountDownLatch lockTaken = new CountDownLatch(1);
        FeedWatch busy = new FeedWatch(new Feeding() {
            @Override
            public void fed() {
                heard.add("fed");
                activating.countDown();
                await(lockTaken); // the first fed takes long: a controller waiting for the lock
            }

            @Override
            public void starved() {
                heard.add("starved");
            }
        }, rule(), "q");
        busy.arrived();
        busy.handled();
        assertThat(activating.await(5, TimeUnit.SECONDS)).isTrue();
        busy.stopped("stopped consuming"); // starved, told behind the busy fed
        busy.arrived(); // and fed again before the listener's turn came
        busy.handled();
        lockTaken.countDown();
        closeAndDrain(busy);

        // A late starved would read fed, starved, fed (told again), starved (the close's).
        assertThat(heard).as("no late starved: it would have made a just-activated controller let go; only "
                + "the close's").containsExactly("fed", "starved");
    }

    private static void awaitTold(List<String> told, int size) {
        Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(2))
                .until(() -> told.size() >= size);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
