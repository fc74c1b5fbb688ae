package dev.mesh.controller.launcher;

import dev.mesh.controller.manifest.MeshException;
import java.util.List;

/**
 * The environment does not configure the program: one line per problem, each naming the variable
 * (and file) and the fix. {@link Main} prints every line and exits with {@code 2}, before anything
 * has connected anywhere.
 */
final class ConfigException extends MeshException {

    private static final long serialVersionUID = 1L;

    private final transient List<String> problems;

    /** @param problems at least one line */
    ConfigException(List<String> problems) {
        super(String.join("\n", problems));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a ConfigException needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    /** @return one line per problem */
    List<String> problems() {
        return problems;
    }
}
