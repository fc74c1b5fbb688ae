package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class FeedWatchTest {

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
    }, now::get, "q");

    private List<String> toldAfterClose() throws InterruptedException {
        watch.close();
        Thread.sleep(50); // the notifier runs what was told before it stops
        return told;
    }

    @Test
    void fedAtTheFirstDelivery_starvedOnlyAfterThreePeriodsWithNothingHandled() throws Exception {
        watch.arrived();
        watch.handled();
        now.addAndGet(FeedWatch.STARVED_AFTER_MS);
        watch.check();
        assertThat(watch.fed()).as("not yet: exactly three periods").isTrue();
        now.addAndGet(1);
        watch.check();
        assertThat(watch.fed()).isFalse();
        watch.arrived();
        watch.handled();
        assertThat(watch.fed()).isTrue();

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
        }, now::get, "q");
        still.check();
        still.arrived();
        still.handled();
        still.check();
        still.check();
        now.addAndGet(FeedWatch.STARVED_AFTER_MS + 1);
        still.check();
        still.check();
        still.close();
        Thread.sleep(50);

        assertThat(all).containsExactly("fed", "still", "still", "starved");
    }

    @Test
    void aDeliveryBeingHandled_keepsItFed_howeverLongItTakes() throws Exception {
        watch.arrived();
        now.addAndGet(10 * FeedWatch.STARVED_AFTER_MS);
        watch.check();
        assertThat(watch.fed()).isTrue();
        watch.handled();
        now.addAndGet(FeedWatch.STARVED_AFTER_MS + 1);
        watch.check();
        assertThat(watch.fed()).isFalse();
        assertThat(toldAfterClose()).containsExactly("fed", "starved");
    }

    @Test
    void stopped_isStarvedOnce_andNothingWhenNotFed() throws Exception {
        watch.stopped("x");
        watch.arrived();
        watch.handled();
        watch.stopped("stopped consuming");
        watch.stopped("again");
        assertThat(toldAfterClose()).containsExactly("fed", "starved");
    }
}
