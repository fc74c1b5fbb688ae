package dev.mesh.controller.store;

import java.util.Locale;

/**
 * The three databases of the store (docs/design.md section 9), each with its own credentials and its
 * own migrations under {@code db/<label>/} on the class path.
 */
public enum Database {
    /** Nodes, module versions, assignments, builds, declarations, plans, request records, the epoch. */
    INVENTORY,
    /** Principals and the verbs they may call. */
    IDENTITY,
    /** Per module, on how many nodes it may run and until when. */
    LICENCES;

    /** @return the name used in messages and for the migrations' folder, e.g. {@code inventory} */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return the Flyway location of this database's migrations */
    String migrations() {
        return "classpath:db/" + label();
    }
}
