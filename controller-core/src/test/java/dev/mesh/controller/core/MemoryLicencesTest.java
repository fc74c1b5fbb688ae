package dev.mesh.controller.core;

import dev.mesh.controller.core.memory.MemoryLicences;
import java.time.Instant;

/** {@link MemoryLicences} passes the licences' contract. */
class MemoryLicencesTest extends LicencesContract {

    private final MemoryLicences licences = new MemoryLicences();

    @Override
    protected Licences newLicences() {
        return licences;
    }

    @Override
    protected void grant(String module, int nodes, Instant expires) {
        licences.grant(module, nodes, expires);
    }

    @Override
    protected void revoke(String module) {
        licences.revoke(module);
    }
}
