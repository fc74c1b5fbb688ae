package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.IdentityContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link PgIdentity} on a fresh identity database: core's contract (grants, revocation, disabled
 * principals), and what only the store refuses.
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
}
