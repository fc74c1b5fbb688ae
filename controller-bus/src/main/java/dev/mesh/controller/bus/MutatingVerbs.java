package dev.mesh.controller.bus;

import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.verbs.Verbs;
import java.util.Objects;

/**
 * The verbs that change the mesh ({@link Verbs#mutates}), which over the broker need a
 * {@code message_id} (docs/design.md section 8): the one property that makes them idempotent there.
 *
 * <p>Stateless; thread-safe.
 */
final class MutatingVerbs {

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
                return identity.allows(principal, verb) && !Verbs.mutates(verb);
            }

            @Override
            public void check(String principal, String verb) {
                // Unauthorized first: a caller without the grant learns nothing more about the verb.
                identity.check(principal, verb);
                if (Verbs.mutates(verb)) {
                    throw new VerbException(VerbException.Code.INVALID, verb + " changes the mesh, so over the broker "
                            + "it needs the message property message_id (1 to 200 characters, one per request), which "
                            + "makes it idempotent; send the request again with one", "");
                }
            }
        };
    }
}
