package dev.mesh.controller.core;

import dev.mesh.controller.core.memory.MemoryIdentity;

/** {@link MemoryIdentity} passes the identity's contract. */
class MemoryIdentityTest extends IdentityContract {

    private final MemoryIdentity identity = new MemoryIdentity();

    @Override
    protected Identity newIdentity() {
        return identity;
    }

    @Override
    protected void add(String principal) {
        identity.add(principal);
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
