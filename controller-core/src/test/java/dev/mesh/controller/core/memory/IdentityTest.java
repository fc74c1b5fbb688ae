package dev.mesh.controller.core.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.VerbException;
import org.junit.jupiter.api.Test;

/** The check every transport makes before a verb runs. */
class IdentityTest {

    private final MemoryIdentity identity = new MemoryIdentity();

    @Test
    void check_grantedVerb_passes() {
        identity.add("mesh-host-alpha");
        identity.grant("mesh-host-alpha", "status", "node");

        assertThatNoException().isThrownBy(() -> identity.check("mesh-host-alpha", "node"));
    }

    @Test
    void check_verbNotGranted_isUnauthorized() {
        identity.add("mesh-host-alpha");
        identity.grant("mesh-host-alpha", "status");

        assertThatThrownBy(() -> identity.check("mesh-host-alpha", "assign"))
                .isInstanceOfSatisfying(VerbException.class, e -> {
                    assertThat(e.code()).isEqualTo(VerbException.Code.UNAUTHORIZED);
                    assertThat(e.getMessage()).isEqualTo("\"mesh-host-alpha\" may not call assign; grant the verb to "
                            + "this principal in the identity store, or call as one that has it");
                });
    }

    @Test
    void check_unknownPrincipal_getsTheSameAnswerAsAnUngrantedOne() {
        identity.add("known");
        identity.grant("known", "status");

        assertThatThrownBy(() -> identity.check("stranger", "status")).hasMessageStartingWith(
                "\"stranger\" may not call status;");
    }

    @Test
    void remove_takesEveryGrant() {
        identity.add("ops");
        identity.grant("ops", "assign");
        identity.remove("ops");

        assertThat(identity.allows("ops", "assign")).isFalse();
        assertThat(Identity.ANYONE.allows("ops", "assign")).isTrue();
    }
}
