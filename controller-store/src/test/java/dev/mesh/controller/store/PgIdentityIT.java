package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.VerbException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link PgIdentity} on a fresh identity database: grants, revocation, disabled principals. */
class PgIdentityIT {

    @RegisterExtension
    static final TestDatabases databases = TestDatabases.perClass();

    private PgIdentity identity;

    @BeforeEach
    void freshDatabase() {
        identity = new PgIdentity(databases.migrated(Database.IDENTITY).dataSource());
        identity.add("ops", "the operators");
        identity.grant("ops", "status", "assign", "assign");
    }

    @Test
    void allows_grantedVerbsOnly() {
        assertThat(identity.allows("ops", "assign")).isTrue();
        assertThat(identity.allows("ops", "push")).isFalse();
        assertThat(identity.allows("stranger", "status")).isFalse();
    }

    @Test
    void revoke_andDisable_takeTheRightAway_addEnablesAgain() {
        identity.revoke("ops", "assign");
        assertThat(identity.allows("ops", "assign")).isFalse();

        identity.disable("ops");
        assertThatThrownBy(() -> identity.check("ops", "status")).isInstanceOfSatisfying(VerbException.class,
                e -> assertThat(e.code()).isEqualTo(VerbException.Code.UNAUTHORIZED));

        identity.add("ops", "the operators, back");
        assertThat(identity.allows("ops", "status")).isTrue();
    }

    @Test
    void grant_toAnUnknownPrincipal_isAStoreError() {
        assertThatThrownBy(() -> identity.grant("nobody", "status")).isInstanceOf(StoreException.class)
                .hasMessageStartingWith("could not grant verbs to nobody in the identity database");
    }
}
