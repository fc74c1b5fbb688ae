package dev.mesh.controller.store;

import java.util.List;
import java.util.Objects;

/**
 * What migrating one database did: the schema version before and after, and the migrations
 * applied in between (none when it was already up to date).
 *
 * @param database the database migrated
 * @param before the schema version before, or {@code ""} for an empty database
 * @param after the schema version after, or {@code ""} when the store has no migrations for it
 * @param applied the migrations applied, in order
 */
public record MigrationReport(Database database, String before, String after, List<Applied> applied) {

    /** Checks and copies the parts. */
    public MigrationReport {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(before, "before");
        Objects.requireNonNull(after, "after");
        applied = List.copyOf(applied);
    }

    /**
     * One migration applied.
     *
     * @param version its version, e.g. {@code 1}
     * @param description its description, from the file name, e.g. {@code inventory}
     */
    public record Applied(String version, String description) {

        /** Checks the parts. */
        public Applied {
            Objects.requireNonNull(version, "version");
            Objects.requireNonNull(description, "description");
        }
    }

    /** @return whether any migration was applied */
    public boolean changed() {
        return !applied.isEmpty();
    }

    /**
     * @return one line for {@code prepare} to print, e.g. {@code inventory: migrated from empty to
     *     version 1 (applied 1 inventory)} or {@code inventory: already up to date at version 1}
     */
    public String text() {
        if (!changed()) {
            return database.label() + ": already up to date at version " + after;
        }
        StringBuilder line = new StringBuilder(database.label()).append(": migrated from ")
                .append(before.isEmpty() ? "empty" : "version " + before).append(" to version ").append(after)
                .append(" (applied ");
        for (int i = 0; i < applied.size(); i++) {
            Applied one = applied.get(i);
            line.append(i == 0 ? "" : ", ").append(one.version()).append(' ').append(one.description());
        }
        return line.append(')').toString();
    }
}
