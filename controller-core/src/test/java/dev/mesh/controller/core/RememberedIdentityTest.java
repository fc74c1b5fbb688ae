package dev.mesh.controller.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.memory.MemoryIdentity;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link Identity#remembering}: the store asked once per principal and verb per period, changes seen after it. */
class RememberedIdentityTest {

    private final Hands clock = new Hands(Instant.parse("2026-12-01T10:00:00Z"));
    private final MemoryIdentity store = new MemoryIdentity();
    private final AtomicInteger asked = new AtomicInteger();
    private final Identity counted = (principal, verb) -> {
        asked.incrementAndGet();
        return store.allows(principal, verb);
    };
    private final Identity identity = Identity.remembering(counted, Duration.ofSeconds(1), clock);

    @Test
    void anAnswer_isRememberedForTheTtl_thenAskedAgain_soARevokeTakesEffectWithinIt() {
        store.add("n1");
        store.grant("n1", "assign");

        assertThat(identity.allows("n1", "assign")).isTrue();
        store.revoke("n1", "assign");
        clock.advance(Duration.ofMillis(999));
        assertThat(identity.allows("n1", "assign")).as("remembered").isTrue();
        assertThat(asked).hasValue(1);

        clock.advance(Duration.ofMillis(1));
        assertThat(identity.allows("n1", "assign")).as("asked again").isFalse();
        assertThat(asked).hasValue(2);
    }

    @Test
    void eachPrincipalAndVerb_isItsOwnAnswer_aRefusalIsRememberedToo() {
        store.add("n1");
        store.grant("n1", "assign");

        assertThat(identity.allows("n1", "assign")).isTrue();
        assertThat(identity.allows("n1", "push")).isFalse();
        assertThat(identity.allows("n2", "status")).isFalse();
        assertThat(identity.allows("n2", "status")).isFalse();
        assertThat(asked).hasValue(3);
    }

    @Test
    void aFailingStore_isNotRemembered() {
        AtomicInteger calls = new AtomicInteger();
        Identity flaky = Identity.remembering((principal, verb) -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("store out of reach");
            }
            return true;
        }, Duration.ofSeconds(1), clock);

        assertThatThrownBy(() -> flaky.allows("n1", "status")).hasMessage("store out of reach");
        assertThat(flaky.allows("n1", "status")).isTrue();
        assertThat(calls).hasValue(2);
    }

    @Test
    void theTtl_isMoreThanZero_andAtMostAMinute() {
        assertThatThrownBy(() -> Identity.remembering(counted, Duration.ZERO, clock))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Identity.remembering(counted, Duration.ofSeconds(61), clock))
                .hasMessage("an identity's answers are remembered for more than 0 and at most a minute, not PT1M1S");
    }
}
