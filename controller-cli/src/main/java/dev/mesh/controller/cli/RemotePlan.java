package dev.mesh.controller.cli;

import java.io.PrintWriter;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * {@code mesh-controller plan} without {@code --mesh}: the running controller's current plan, as
 * the offline {@code plan} prints one — the problems of composition, then the plan like
 * {@code terraform plan} (the {@code text} the verb answers, which core's {@code PlanText} made from
 * the same plan) — and with the same exit codes: 0 no changes, 2 changes, 1 an error.
 * {@link PlanCommand} runs it; it is not a subcommand of its own.
 */
final class RemotePlan extends ClientCommand {

    RemotePlan(Map<String, String> env) {
        super(env);
    }

    @Override
    String verb() {
        return "plan";
    }

    @Override
    void print(JsonNode result, PrintWriter out) {
        JsonNode problems = result.path("problems");
        problems.forEach(problem -> out.println(VerbText.problem(problem)));
        out.print((problems.isEmpty() ? "" : "\n") + result.path("text").asString(""));
    }

    @Override
    int exitCode(JsonNode result) {
        boolean errors = result.path("problems").valueStream()
                .anyMatch(problem -> !problem.path("severity").asString("").equalsIgnoreCase("warning"));
        return errors ? 1 : result.path("plan").path("empty").asBoolean(false) ? 0 : 2;
    }
}
