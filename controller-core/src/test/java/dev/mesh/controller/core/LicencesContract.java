package dev.mesh.controller.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Licences.Licence;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Licences} must do, with the grant and revoke every implementation has. Run by
 * {@link MemoryLicencesTest} here and by the PostgreSQL licences in controller-store (through core's
 * test jar).
 */
public abstract class LicencesContract {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    private Licences licences;

    /** @return new licences, none granted, for one test */
    protected abstract Licences newLicences();

    /** Grants or replaces a module's licence in the implementation under test. */
    protected abstract void grant(String module, int nodes, Instant expires);

    /** Removes a module's licence in the implementation under test. */
    protected abstract void revoke(String module);

    @BeforeEach
    void freshLicences() {
        licences = newLicences();
    }

    @Test
    void licence_ungrantedModule_isEmpty_notLimited() {
        assertThat(licences.licence("web")).isEmpty();
    }

    @Test
    void grant_replace_revoke_roundTrip() {
        grant("web", 3, NOW);
        grant("db", 0, NOW);
        grant("web", 5, NOW.plusSeconds(60));

        assertThat(licences.licence("web")).contains(new Licence("web", 5, NOW.plusSeconds(60)));
        assertThat(licences.licence("db")).contains(new Licence("db", 0, NOW));
        revoke("web");
        revoke("never-granted");
        assertThat(licences.licence("web")).isEmpty();
        assertThat(licences.licence("db")).isPresent();
    }

    @Test
    void grant_keepsTheExpiryToTheMicrosecond() {
        grant("web", 1, Instant.parse("2026-11-29T12:00:00.123456789Z"));

        assertThat(licences.licence("web")).get().extracting(Licence::expires)
                .isEqualTo(Instant.parse("2026-11-29T12:00:00.123457Z"));
    }

    @Test
    void grant_negativeNodeCount_isRefused_andKeepsTheLicence() {
        grant("web", 2, NOW);

        assertThatThrownBy(() -> grant("web", -1, NOW)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a licence's node count is 0 or more, got -1");
        assertThat(licences.licence("web")).contains(new Licence("web", 2, NOW));
    }
}
