package dev.mesh.controller.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Identity} must do, with the administration every implementation has: add a
 * principal, grant and revoke verbs, disable it. Run by {@link MemoryIdentityTest} here and by the
 * PostgreSQL identity in controller-store (through core's test jar).
 */
public abstract class IdentityContract {

    private Identity identity;

    /** @return a new identity, no principal in it, for one test */
    protected abstract Identity newIdentity();

    /** Adds a principal, or enables it again keeping its grants. */
    protected abstract void add(String principal);

    /** Grants verbs to a principal that was added. */
    protected abstract void grant(String principal, String... verbs);

    /** Takes a verb from a principal. */
    protected abstract void revoke(String principal, String verb);

    /** Disables a principal: it may call nothing until added again. */
    protected abstract void disable(String principal);

    @BeforeEach
    void opsMayCallStatusAndAssign() {
        identity = newIdentity();
        add("ops");
        grant("ops", "status", "assign", "assign");
    }

    @Test
    void grant_toAPrincipalNeverAdded_isRefused_andGrantsNothing() {
        assertThatThrownBy(() -> grant("nobody", "status")).isInstanceOf(RuntimeException.class)
                .message().contains("nobody").doesNotContainIgnoringCase("insert");

        assertThat(identity.allows("nobody", "status")).isFalse();
    }

    @Test
    void allows_grantedVerbsOnly() {
        assertThat(identity.allows("ops", "assign")).isTrue();
        assertThat(identity.allows("ops", "status")).isTrue();
        assertThat(identity.allows("ops", "push")).isFalse();
    }

    @Test
    void allows_readsToEveryKnownPrincipal_changesByGrantOnly() {
        add("reader");

        assertThat(identity.allows("reader", "status")).isTrue();
        assertThat(identity.allows("reader", "nodes")).isTrue();
        assertThat(identity.allows("reader", "plan")).isTrue();
        assertThat(identity.allows("reader", "assign")).isFalse();
        assertThat(identity.allows("reader", "build")).isFalse();
        disable("reader");
        assertThat(identity.allows("reader", "status")).as("disabled").isFalse();
    }

    @Test
    void check_unknownPrincipal_getsTheSameAnswerAsAnUngrantedVerb() {
        assertThat(identity.allows("stranger", "status")).isFalse();
        assertThatThrownBy(() -> identity.check("stranger", "status"))
                .isInstanceOfSatisfying(VerbException.class, e -> {
                    assertThat(e.code()).isEqualTo(VerbException.Code.UNAUTHORIZED);
                    assertThat(e.getMessage()).isEqualTo("\"stranger\" may not call status; grant the verb to this "
                            + "principal in the identity store, or call as one that has it");
                });
        assertThatThrownBy(() -> identity.check("ops", "push")).hasMessageStartingWith("\"ops\" may not call push;");
    }

    @Test
    void revoke_takesThatVerbOnly() {
        revoke("ops", "assign");
        revoke("ops", "never-granted");

        assertThat(identity.allows("ops", "assign")).isFalse();
        assertThat(identity.allows("ops", "status")).as("a read, still").isTrue();
    }

    @Test
    void disable_takesEveryVerb_andAddingAgainGivesThemBack() {
        disable("ops");
        assertThat(identity.allows("ops", "status")).isFalse();
        assertThatThrownBy(() -> identity.check("ops", "status")).isInstanceOf(VerbException.class);

        add("ops");
        assertThat(identity.allows("ops", "status")).isTrue();
        assertThat(identity.allows("ops", "assign")).isTrue();
    }

    @Test
    void add_anAddedPrincipal_keepsItsGrants() {
        add("ops");

        assertThat(identity.allows("ops", "assign")).isTrue();
    }
}
