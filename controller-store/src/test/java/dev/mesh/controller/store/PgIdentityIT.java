package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Grants;
import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.IdentityContract;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link PgIdentity} on a fresh identity database: core's contract (grants, revocation, disabled
 * principals), and what the tools that manage identity read back: what changed, and the list.
 */
class PgIdentityIT extends IdentityContract {

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    private PgIdentity identity;

    @Override
    protected Identity newIdentity() {
        identity = new PgIdentity(databases.migrated(Database.IDENTITY).dataSource());
        return identity;
    }

    @Override
    protected void add(String principal) {
        identity.add(principal, "the " + principal);
    }

    @Override
    protected void grant(String principal, String... verbs) {
        identity.grant(principal, verbs);
    }

    @Override
    protected void revoke(String principal, String verb) {
        identity.revoke(principal, verb);
    }

    @Override
    protected void disable(String principal) {
        identity.disable(principal);
    }

    @Test
    void enroll_addsAnUnknownPrincipalOnce_andLeavesADisabledOneDisabled() {
        newIdentity();

        assertThat(identity.enroll("n1")).isTrue();
        assertThat(identity.enroll("n1")).isFalse();
        identity.disable("n1");
        assertThat(identity.enroll("n1")).isFalse();

        assertThat(identity.principals()).containsExactly(new Grants.Principal("n1", true, List.of()));
        assertThat(identity.enabled()).as("a disabled principal is not among the enabled").isEmpty();
    }

    @Test
    void enabled_isEachPrincipalNotDisabled_withItsVerbs() {
        newIdentity();
        identity.enroll("n2");
        identity.grant("n2", "status", "assign");
        identity.enroll("n1");
        identity.enroll("n3");
        identity.grant("n3", "build");
        identity.disable("n3");

        assertThat(identity.enabled()).containsExactly(java.util.Map.entry("n1", java.util.Set.of()),
                java.util.Map.entry("n2", java.util.Set.of("assign", "status")));
    }

    @Test
    void grant_saysWhichVerbsWereNew_revokeSaysWhetherOneWasGranted() {
        newIdentity();
        identity.enroll("n1");

        assertThat(identity.grant("n1", "status", "assign")).containsExactly("status", "assign");
        assertThat(identity.grant("n1", "assign", "push", "push")).containsExactly("push");
        assertThat(identity.revoke("n1", "push")).isTrue();
        assertThat(identity.revoke("n1", "push")).isFalse();
        assertThat(identity.revoke("stranger", "push")).isFalse();
    }

    @Test
    void revokeAll_takesEveryVerb_keepsThePrincipal() {
        newIdentity();
        identity.enroll("n1");
        identity.grant("n1", "status", "assign", "tools");

        assertThat(identity.revokeAll("n1")).containsExactly("assign", "status", "tools");
        assertThat(identity.revokeAll("n1")).isEmpty();
        assertThat(identity.revokeAll("stranger")).isEmpty();
        assertThat(identity.principals()).containsExactly(new Grants.Principal("n1", false, List.of()));
    }

    @Test
    void principals_sortedByName_eachWithItsVerbsSorted() {
        newIdentity();
        identity.add("ops", "the operators");
        identity.enroll("builder");
        identity.enroll("n1");
        identity.grant("ops", "status", "assign", "build");
        identity.grant("builder", "build");

        assertThat(identity.principals()).containsExactly(
                new Grants.Principal("builder", false, List.of("build")),
                new Grants.Principal("n1", false, List.of()),
                new Grants.Principal("ops", false, List.of("assign", "build", "status")));
    }
}
