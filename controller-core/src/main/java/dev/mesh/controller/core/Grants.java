package dev.mesh.controller.core;

import java.util.List;
import java.util.Objects;

/**
 * The identity store's principals and their grants as an operator manages them ({@code mesh-controller grant},
 * {@code revoke}, {@code principals}; docs/security.md). A port: the store implements it on the identity
 * database, where {@link Identity} reads the same grants for every call.
 */
public interface Grants {

    /**
     * A principal as {@link #principals()} lists it.
     *
     * @param name the user id the transports authenticate
     * @param disabled whether it may call nothing, whatever its grants
     * @param verbs its grants, sorted
     */
    record Principal(String name, boolean disabled, List<String> verbs) {

        /** Checks and copies the parts. */
        public Principal {
            Objects.requireNonNull(name, "name");
            verbs = List.copyOf(verbs);
        }
    }

    /**
     * Adds a principal that is not known yet, with no description; leaves a known one — disabled or not — as it
     * is. What {@code mesh-controller grant} does before it grants.
     *
     * @param principal the user id the transports authenticate
     * @return whether it was added
     */
    boolean enroll(String principal);

    /**
     * Grants verbs to a principal that exists; granting one twice changes nothing.
     *
     * @param principal the principal
     * @param verbs the verbs
     * @return the verbs it was not granted before, in the order given, each once
     */
    List<String> grant(String principal, String... verbs);

    /**
     * Takes a verb from a principal.
     *
     * @param principal the principal
     * @param verb the verb
     * @return whether it was granted
     */
    boolean revoke(String principal, String verb);

    /**
     * Takes every verb from a principal; the principal stays known, with no grant.
     *
     * @param principal the principal
     * @return the verbs it was granted, sorted
     */
    List<String> revokeAll(String principal);

    /** @return every principal, disabled ones too, sorted by name, each with its grants */
    List<Principal> principals();
}
