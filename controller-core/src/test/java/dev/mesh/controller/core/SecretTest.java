package dev.mesh.controller.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import org.junit.jupiter.api.Test;

class SecretTest {

    record Credentials(String user, Secret password) {}

    @Test
    void toString_neverShowsTheValue_evenInsideARecord() {
        Secret secret = Secret.of("hunter2");

        assertThat(secret.toString()).isEqualTo("***");
        assertThat(new Credentials("ctl", secret).toString()).isEqualTo("Credentials[user=ctl, password=***]")
                .doesNotContain("hunter2");
    }

    @Test
    void reveal_givesTheValue() {
        assertThat(Secret.of("hunter2").reveal()).isEqualTo("hunter2");
        assertThat(Secret.of("").isEmpty()).isTrue();
        assertThat(Secret.of("")).isSameAs(Secret.NONE);
    }

    @Test
    void equality_isByValue_andTheHashTellsNothing() {
        assertThat(Secret.of("a")).isEqualTo(Secret.of("a")).isNotEqualTo(Secret.of("b"));
        assertThat(Secret.of("a").hashCode()).isEqualTo(Secret.of("b").hashCode());
    }

    @Test
    void of_refusesNull() {
        assertThatNullPointerException().isThrownBy(() -> Secret.of(null));
    }
}
