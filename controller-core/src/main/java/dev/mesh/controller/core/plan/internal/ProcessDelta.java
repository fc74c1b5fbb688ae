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
            why.add(artifact(was.artifact(), now.artifact()));
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

    /** @return why only the way the process restarts changed, or an empty string when it did not */
    static String overlap(Declaration.Process was, Declaration.Process now) {
        return was.overlap() == now.overlap() ? ""
                : now.overlap() ? "safe to run twice now: restarted beside the old one from now on"
                : "no longer safe to run twice: stopped before it restarts from now on";
    }

    private static String artifact(Declaration.Artifact was, Declaration.Artifact now) {
        String name = now.module() + "/" + now.name();
        if (!Objects.equals(was.version(), now.version())) {
            return "artifact " + name + " " + (was.version() == null ? "of an unnamed version" : was.version())
                    + " → " + now.version();
        }
        if (!Objects.equals(was.sha256(), now.sha256())) {
            return "artifact " + name + " " + now.version() + " " + (now.sha256() == null ? "to be built"
                    : "built as " + now.sha256());
        }
        return "artifact " + name + " changed";
    }
}
