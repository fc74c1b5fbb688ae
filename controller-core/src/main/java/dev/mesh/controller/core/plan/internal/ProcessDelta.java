package dev.mesh.controller.core.plan.internal;

import dev.mesh.controller.core.Declaration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/** Why a process must restart: which of its inputs changed, in one line. */
final class ProcessDelta {

    private ProcessDelta() {
    }

    /** @return the reason, or an empty string when nothing that matters changed */
    static String reason(Declaration.Process was, Declaration.Process now) {
        List<String> why = new ArrayList<>();
        if (!was.artifact().equals(now.artifact())) {
            why.add("artifact " + was.artifact().module() + "/" + was.artifact().name() + " changed");
        }
        if (!was.run().equals(now.run())) {
            why.add("run changed");
        }
        if (!was.user().equals(now.user())) {
            why.add("user " + was.user() + " → " + now.user());
        }
        if (!was.env().equals(now.env())) {
            TreeSet<String> keys = new TreeSet<>(was.env().keySet());
            keys.addAll(now.env().keySet());
            keys.removeIf(key -> Objects.equals(was.env().get(key), now.env().get(key)));
            why.add("env " + String.join(", ", keys) + " changed");
        }
        if (!Objects.equals(was.prepare(), now.prepare()) && why.isEmpty()) {
            why.add("preparation changed");
        }
        return String.join("; ", why);
    }
}
