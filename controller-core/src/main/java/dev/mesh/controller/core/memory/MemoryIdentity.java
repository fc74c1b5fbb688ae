package dev.mesh.controller.core.memory;

import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Tool;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** {@link Identity} in memory, for offline use and tests. Thread-safe. */
public final class MemoryIdentity implements Identity {

    private final Map<String, Set<String>> grants = new ConcurrentHashMap<>();
    private final Set<String> disabled = ConcurrentHashMap.newKeySet();

    /** Adds a principal with no verb, or enables a disabled one again, keeping its grants. */
    public void add(String principal) {
        grants.computeIfAbsent(principal, p -> ConcurrentHashMap.newKeySet());
        disabled.remove(principal);
    }

    /**
     * Grants verbs to a principal that exists, as the store does; granting one twice changes nothing.
     *
     * @param principal the principal, {@linkplain #add added} before
     * @param verbs the verbs it may call
     * @throws IllegalArgumentException when the principal was not added (the store refuses it too)
     */
    public void grant(String principal, String... verbs) {
        Set<String> granted = grants.get(principal);
        if (granted == null) {
            throw new IllegalArgumentException("\"" + principal + "\" is not a principal; add it before granting it "
                    + "verbs");
        }
        granted.addAll(Arrays.asList(verbs));
    }

    /** Takes a verb from a principal. */
    public void revoke(String principal, String verb) {
        Set<String> verbs = grants.get(principal);
        if (verbs != null) {
            verbs.remove(verb);
        }
    }

    /** Disables a principal: it may call nothing until {@linkplain #add added} again; its grants are kept. */
    public void disable(String principal) {
        if (grants.containsKey(principal)) {
            disabled.add(principal);
        }
    }

    /** Removes a principal and its grants. */
    public void remove(String principal) {
        grants.remove(principal);
        disabled.remove(principal);
    }

    @Override
    public boolean allows(String principal, String verb) {
        Set<String> verbs = grants.get(principal);
        return verbs != null && (!Tool.mutates(verb) || verbs.contains(verb)) && !disabled.contains(principal);
    }
}
