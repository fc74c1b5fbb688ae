package dev.mesh.controller.manifest;

import java.util.List;

/**
 * A manifest, or a template, that is not valid. Carries every problem found in the document, not
 * just the first, each with its location.
 */
public final class ManifestException extends MeshException {

    private static final long serialVersionUID = 1L;

    private final transient List<Problem> problems;

    /**
     * @param problems at least one problem
     * @throws IllegalArgumentException if {@code problems} is empty
     */
    public ManifestException(List<Problem> problems) {
        super(summary(problems));
        this.problems = List.copyOf(problems);
    }

    /**
     * @return every problem of the document, in document order, warnings included; never empty,
     *     and holding at least one error when it comes from a parser
     */
    public List<Problem> problems() {
        return problems;
    }

    private static String summary(List<Problem> problems) {
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a ManifestException needs at least one problem");
        }
        // The first error, not a warning that stands before it.
        String first = problems.stream().filter(Problem::isError).findFirst().orElse(problems.getFirst()).toString();
        return problems.size() == 1 ? first : first + " (and " + (problems.size() - 1) + " more problem" + (problems.size() == 2 ? ")" : "s)");
    }
}
