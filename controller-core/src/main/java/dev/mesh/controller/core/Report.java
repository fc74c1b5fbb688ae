package dev.mesh.controller.core;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a host or a builder reports to the controller (docs/design.md section 8, queue
 * {@code mesh-controller.reports}): a host that applied a declaration or failed to, or a builder
 * that finished a build. The bus reads them off the wire; the {@link dev.mesh.controller.core.execute.Execution}
 * records them.
 */
public sealed interface Report {

    /** @return when the sender says it happened */
    Instant at();

    /**
     * A host applied its declaration of that revision: it becomes the node's acknowledged one.
     *
     * @param node the node whose host reports
     * @param revision the revision it applied
     * @param steps what it did, change by change
     * @param at when
     */
    record Applied(String node, String revision, List<Step> steps, Instant at) implements Report {
        /** Checks and copies the parts. */
        public Applied {
            checkHost(node, revision);
            steps = List.copyOf(steps);
            at = Objects.requireNonNull(at, "at").truncatedTo(ChronoUnit.MICROS);
        }
    }

    /**
     * A host could not apply its declaration of that revision: the steps say which change failed and
     * why; {@code node}, {@code status} and {@code plan} show it until the node applies a revision.
     *
     * @param node the node whose host reports
     * @param revision the revision it tried to apply
     * @param steps what it did, change by change, the failed ones with their detail
     * @param at when
     */
    record Failed(String node, String revision, List<Step> steps, Instant at) implements Report {
        /** Checks and copies the parts. */
        public Failed {
            checkHost(node, revision);
            steps = List.copyOf(steps);
            at = Objects.requireNonNull(at, "at").truncatedTo(ChronoUnit.MICROS);
        }

        /** @return the steps that failed, in the order reported */
        public List<Step> failedSteps() {
            return steps.stream().filter(step -> !step.done()).toList();
        }
    }

    /**
     * A builder finished a build. One that succeeded names what it made: the archive's SHA-256 and
     * where a host gets it; a success without them is recorded as a failure ({@link #artifact()}).
     *
     * @param build the build's id, {@code build:MODULE@VERSION/ARTIFACT}
     * @param succeeded whether it reported {@code succeeded}
     * @param detail what it said, or {@code ""}
     * @param sha256 the archive's SHA-256 as the builder reported it, or {@code null}
     * @param location where a host gets the archive, or {@code null}
     * @param at when
     */
    record Build(String build, boolean succeeded, String detail, String sha256, String location, Instant at)
            implements Report {
        /** Checks the parts. */
        public Build {
            Objects.requireNonNull(build, "build");
            Objects.requireNonNull(detail, "detail");
            at = Objects.requireNonNull(at, "at").truncatedTo(ChronoUnit.MICROS);
            if (!build.startsWith("build:")) {
                throw new IllegalArgumentException("a build report names its build as build:MODULE@VERSION/ARTIFACT, "
                        + "not \"" + build + "\"");
            }
        }

        /**
         * @return this report when it is a failure or a success that names its artifact; otherwise
         *     the failure it counts as, with {@link #problem()} as its detail
         */
        public Build usable() {
            return problem().map(why -> new Build(build, false, why, sha256, location, at)).orElse(this);
        }

        /**
         * @return what the build made, when it succeeded and named a valid digest and a location;
         *     empty otherwise (see {@link #problem()})
         */
        public Optional<Built> artifact() {
            return succeeded && problem().isEmpty() ? Optional.of(new Built(build, sha256, location))
                    : Optional.empty();
        }

        /**
         * @return why a success cannot be used: it named no valid SHA-256 or no location; empty
         *     for a usable success and for a failure
         */
        public Optional<String> problem() {
            if (!succeeded) {
                return Optional.empty();
            }
            if (!Built.isDigest(sha256)) {
                return Optional.of("the builder reported " + build + " succeeded but named "
                        + (sha256 == null ? "no sha256" : "the sha256 \"" + sha256 + "\", which is not 64 lower-case "
                        + "hex digits") + "; a host runs only an archive whose digest its declaration pins, so the "
                        + "build counts as failed: fix the builder and run the build verb again");
            }
            if (location == null || location.isBlank()) {
                return Optional.of("the builder reported " + build + " succeeded but named no location; a host "
                        + "cannot get the archive, so the build counts as failed: fix the builder and run the build "
                        + "verb again");
            }
            return Optional.empty();
        }
    }

    /**
     * One change a host carried out, or tried to.
     *
     * @param id the change's id in the plan, e.g. {@code n1/process:mesh-store}
     * @param done {@code true} for status {@code done}, {@code false} for {@code failed}
     * @param detail what the host said, or {@code ""}
     */
    record Step(String id, boolean done, String detail) {
        /** Checks the parts. */
        public Step {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(detail, "detail");
        }
    }

    private static void checkHost(String node, String revision) {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(revision, "revision");
        if (node.isEmpty() || revision.isEmpty()) {
            throw new IllegalArgumentException("a host's report names its node and the revision; got node \"" + node
                    + "\" and revision \"" + revision + "\"");
        }
    }
}
