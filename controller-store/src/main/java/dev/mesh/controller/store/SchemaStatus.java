package dev.mesh.controller.store;

import java.util.List;
import java.util.Objects;

/**
 * Where one database's schema stands against the migrations this controller carries.
 *
 * @param database the database
 * @param current the version applied last, or {@code ""} for an empty database
 * @param latest the newest version this controller carries
 * @param pending the versions this controller carries and the database lacks, in order
 * @param unknown versions applied to the database that this controller does not carry (a newer
 *     controller migrated it), in order
 */
public record SchemaStatus(Database database, String current, String latest, List<String> pending,
        List<String> unknown) {

    /** Checks and copies the parts. */
    public SchemaStatus {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(current, "current");
        Objects.requireNonNull(latest, "latest");
        pending = List.copyOf(pending);
        unknown = List.copyOf(unknown);
    }

    /** @return whether migrations are missing: {@code prepare} must run before {@code serve} */
    public boolean behind() {
        return !pending.isEmpty();
    }

    /** @return whether a newer controller migrated the database past what this one knows */
    public boolean ahead() {
        return !unknown.isEmpty();
    }

    /** @return whether the schema is exactly the one this controller carries */
    public boolean upToDate() {
        return !behind() && !ahead();
    }
}
