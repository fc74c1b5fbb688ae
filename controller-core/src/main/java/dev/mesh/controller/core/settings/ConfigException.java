package dev.mesh.controller.core.settings;

import dev.mesh.controller.manifest.MeshException;
import java.util.List;

/**
 * What configures a command is wrong — the environment, a token file, a file the command line
 * names —: one line per problem, each naming the variable (and file) and the fix. The command line
 * ({@code dev.mesh.controller.cli.Failures}) prints every line and exits with the command's exit code for refused input ({@code 2}, {@code 1}
 * for {@code plan}), before anything has connected anywhere.
 */
public final class ConfigException extends MeshException {

    private static final long serialVersionUID = 1L;

    private final transient List<String> problems;

    /**
     * @param problems at least one line
     * @throws IllegalArgumentException when there is none
     */
    public ConfigException(List<String> problems) {
        super(String.join("\n", problems));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a ConfigException needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    /** @return one line per problem */
    public List<String> problems() {
        return problems;
    }
}
