package dev.mesh.controller.core.memory;

import dev.mesh.controller.core.Identity;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** {@link Identity} in memory, for offline use and tests. Thread-safe. */
public final class MemoryIdentity implements Identity {

    private final Map<String, Set<String>> grants = new ConcurrentHashMap<>();

    /**
     * Grants verbs to a principal, adding the principal when it is new.
     *
     * @param principal the principal
     * @param verbs the verbs it may call
     */
    public void grant(String principal, String... verbs) {
        grants.computeIfAbsent(principal, p -> ConcurrentHashMap.newKeySet()).addAll(Set.of(verbs));
    }

    /** Removes a principal and its grants. */
    public void remove(String principal) {
        grants.remove(principal);
    }

    @Override
    public boolean allows(String principal, String verb) {
        Set<String> verbs = grants.get(principal);
        return verbs != null && verbs.contains(verb);
    }
}
