package dev.mesh.controller.bus;

import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.VerbException;
import java.util.Objects;
import java.util.Set;

/**
 * The verbs that change the mesh, which over the broker need a {@code message_id} (DESIGN.md section 8):
 * the same four that core makes idempotent by request id. Core keeps its set private, so it is named
 * again here; {@code MutatingVerbsTest} fails when core's tools and this list part ways.
 *
 * <p>Stateless; thread-safe.
 */
final class MutatingVerbs {

    /** The mutating verbs. */
    static final Set<String> NAMES = Set.of("assign", "unassign", "push", "build");

    private MutatingVerbs() {
    }

    /**
     * The identity a request without {@code message_id} is checked by: the controller's, and then a
     * mutating verb is {@code invalid}. The dispatcher checks the identity before it calls the verb, so
     * the refusal is answered as every other tool error is, and nothing runs.
     *
     * @param identity the controller's identity
     * @return that identity, refusing mutating verbs
     */
    static Identity withoutMessageId(Identity identity) {
        Objects.requireNonNull(identity, "identity");
        return new Identity() {
            @Override
            public boolean allows(String principal, String verb) {
                return identity.allows(principal, verb) && !NAMES.contains(verb);
            }

            @Override
            public void check(String principal, String verb) {
                // Unauthorized first: a caller without the grant learns nothing more about the verb.
                identity.check(principal, verb);
                if (NAMES.contains(verb)) {
                    throw new VerbException(VerbException.Code.INVALID, verb + " changes the mesh, so over the broker "
                            + "it needs the message property message_id (1 to 200 characters, one per request), which "
                            + "makes it idempotent; send the request again with one", "");
                }
            }
        };
    }
}
