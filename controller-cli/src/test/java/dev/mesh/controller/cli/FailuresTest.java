package dev.mesh.controller.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.settings.ConfigException;
import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.ManifestException;
import dev.mesh.controller.manifest.Problem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every kind of failure as the user sees it: its lines and exit code, never a stack trace. */
class FailuresTest {

    private static final ManifestException TWO_PROBLEMS = new ManifestException(List.of(
            Problem.error("missing-field", "the field \"module\" is missing; add it", new Location("m.json", "", 1, 1)),
            Problem.error("unknown-field", "unknown field \"versoin\"", new Location("m.json", "/versoin", 3, 3))));

    @Test
    void unreachable_isExit3_oneLinePerPlaceTried() {
        Failures.Report report = Failures.of(new UnreachableException(List.of("--url: not given", "x/url: no such file")),
                2);

        assertThat(report.exitCode()).isEqualTo(3);
        assertThat(report.lines()).containsExactly("mesh-controller: no controller was reached; tried, in order:",
                "  --url: not given", "  x/url: no such file");
    }

    @Test
    void configuration_isTheCommandsInvalidInputCode_oneLinePerProblem() {
        ConfigException config = new ConfigException(List.of("A is not set; set it", "B=x is not host:port"));

        assertThat(Failures.of(config, 2)).isEqualTo(new Failures.Report(2, List.of(
                "mesh-controller: A is not set; set it", "mesh-controller: B=x is not host:port")));
        assertThat(Failures.of(config, 1).exitCode()).isEqualTo(1);
    }

    @Test
    void manifestProblems_areEachLocated_asValidatePrintsThem() {
        assertThat(Failures.of(TWO_PROBLEMS, 2)).isEqualTo(new Failures.Report(1, List.of(
                "mesh-controller: m.json:1:1: (root): the field \"module\" is missing; add it",
                "mesh-controller: m.json:3:3: /versoin: unknown field \"versoin\"")));
    }

    @Test
    void aFileThatStoppedACommand_isItsProblems_thenWhatThatMeant() {
        CommandException stopped = new CommandException("the mesh file m.json has 2 problems; nothing was started",
                TWO_PROBLEMS);

        assertThat(Failures.of(stopped, 2)).isEqualTo(new Failures.Report(1, List.of(
                "m.json:1:1: (root): the field \"module\" is missing; add it",
                "m.json:3:3: /versoin: unknown field \"versoin\"",
                "mesh-controller: the mesh file m.json has 2 problems; nothing was started")));
    }

    @Test
    void verbError_isItsCodeAndMessage_thenThePointer() {
        assertThat(Failures.of(new VerbException(VerbException.Code.NOT_FOUND, "no node \"delta\"", "/name"), 2))
                .isEqualTo(new Failures.Report(1, List.of("error (not-found): no node \"delta\"", "  at /name")));
        assertThat(Failures.of(new VerbException(VerbException.Code.CONFLICT, "taken", ""), 2).lines())
                .containsExactly("error (conflict): taken");
    }

    @Test
    void otherMeshFailure_isItsMessageOnOneLine_exit1() {
        CommandException failure = new CommandException("cannot write out/\n  because: read-only", null);

        assertThat(Failures.of(failure, 2)).isEqualTo(new Failures.Report(1, List.of(
                "mesh-controller: cannot write out/ because: read-only")));
        assertThat(Failures.line(failure)).isEqualTo("cannot write out/ because: read-only");
    }

    @Test
    void anythingElse_isAnUnexpectedFailure_askingForABugReport_withoutAStackTrace() {
        Failures.Report report = Failures.of(new UncheckedIOException("broken pipe", new IOException("EPIPE")), 2);

        assertThat(report.exitCode()).isEqualTo(1);
        assertThat(report.lines()).containsExactly("mesh-controller: unexpected failure: java.io.UncheckedIOException: "
                + "broken pipe (this is a bug in mesh-controller; please report it with the command you ran)");
        assertThat(Failures.of(new NullPointerException(), 2).lines()).containsExactly("mesh-controller: unexpected "
                + "failure: java.lang.NullPointerException (this is a bug in mesh-controller; please report it with "
                + "the command you ran)");
    }
}
