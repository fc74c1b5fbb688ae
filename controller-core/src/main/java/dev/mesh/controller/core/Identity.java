package dev.mesh.controller.core;


/**
 * Who may call which verb (docs/design.md section 9, the {@code identity} database): principals — the
 * user ids the transports authenticate — and their verb grants. Any known principal may call the
 * verbs that read; a verb that changes the mesh ({@link Tool#mutates}) needs its grant (docs/design.md
 * section 7). A port: the store implements it,
 * {@code MemoryIdentity} in memory. Every transport calls {@link #check} before it hands a call to
 * {@code Verbs}.
 *
 * <p>Implementations are thread-safe.
 */
public interface Identity {

    /** Everyone may call every verb: for offline use and the single-user development controller. */
    Identity ANYONE = (principal, verb) -> true;

    /**
     * An identity that remembers {@code source}'s answers for {@code ttl}, so that a transport answering
     * hundreds of verbs a second asks the store once a second per principal and verb, not once per call.
     * A grant, a revoke or a disabled principal takes effect within {@code ttl}. An answer that fails (the
     * store out of reach) is not remembered.
     *
     * @param source the identity asked
     * @param ttl how long an answer is kept, more than 0 and at most a minute
     * @param clock what tells the time
     * @return the remembering identity; thread-safe
     * @throws IllegalArgumentException when {@code ttl} is out of range
     */
    static Identity remembering(Identity source, java.time.Duration ttl, java.time.Clock clock) {
        return new RememberedIdentity(source, ttl, clock);
    }

    /**
     * @param principal the authenticated caller
     * @param verb the verb it calls
     * @return whether the principal exists, is not disabled, and — for a verb that changes the mesh —
     *     is granted the verb
     */
    boolean allows(String principal, String verb);

    /**
     * @param principal the authenticated caller
     * @param verb the verb it calls
     * @throws VerbException {@code unauthorized} when {@link #allows} says no; the message does not
     *     say whether the principal exists
     */
    default void check(String principal, String verb) {
        if (!allows(principal, verb)) {
            throw new VerbException(VerbException.Code.UNAUTHORIZED, "\"" + principal + "\" may not call " + verb
                    + "; grant the verb to this principal in the identity store, or call as one that has it", "");
        }
    }
}
