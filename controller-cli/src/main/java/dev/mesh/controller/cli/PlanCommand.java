package dev.mesh.controller.cli;

import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Plan;
import dev.mesh.controller.core.plan.DeclarationReader;
import dev.mesh.controller.core.plan.PlanText;
import dev.mesh.controller.core.plan.Planner;
import dev.mesh.controller.core.plan.Planning;
import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.ManifestException;
import dev.mesh.controller.manifest.Problem;
import dev.mesh.controller.manifest.Severity;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code mesh-controller plan --mesh FILE [--applied DIR] [--json]}: the changes that take every
 * node from its last acknowledged declaration to the one composed now. Without {@code --mesh}, the
 * running controller's current plan ({@link RemotePlan}). Exit codes as terraform's
 * {@code -detailed-exitcode}: 0 no changes, 2 changes, 1 error — a usage error included, so that a
 * script never mistakes a wrong command line for "there are changes" —, and 3 when no controller
 * could be reached.
 */
@Command(name = "plan",
        mixinStandardHelpOptions = true,
        versionProvider = JarVersion.class,
        description = {
            "Plans the changes that bring every node from its last acknowledged declaration to the one "
                + "composed from the mesh file now, offline: accounts, directories, secrets, accesses, builds, "
                + "preparation, process starts; ordered, with what each change waits for.",
            "Without --mesh: the running controller's current plan (found with --url, --state, --token-file as "
                + "the other client commands find it)."},
        exitCodeOnInvalidInput = 1,
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:no changes",
            "1:a problem was found, the controller refused the call, or the command line is wrong",
            "2:the plan has changes",
            "3:without --mesh: no controller could be reached; every place tried is listed"})
final class PlanCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    private final Map<String, String> env;

    /** Absent without --mesh: then the running controller plans. */
    @ArgGroup(exclusive = false, multiplicity = "0..1")
    private MeshInput meshFile;

    @Mixin
    private ControllerOptions controller;

    @Option(names = "--applied", paramLabel = "DIR",
            description = "Each node's last acknowledged declaration as DIR/<node>.json (as compose --json prints "
                    + "it); a node without a file has none. Without this option no node has one.")
    private Path applied;

    @Option(names = "--json", description = "Print one JSON document: {\"plan\":…,\"problems\":[…]} (without "
            + "--mesh: the plan verb's result, {\"plan\":…,\"problems\":[…],\"text\":…}).")
    private boolean json;

    PlanCommand(Map<String, String> env) {
        this.env = Objects.requireNonNull(env, "env");
    }

    @Override
    public Integer call() {
        if (meshFile == null) {
            if (applied != null) {
                throw new ParameterException(spec.commandLine(), "--applied needs --mesh: the running controller "
                        + "plans from the declarations its nodes acknowledged");
            }
            return new RemotePlan(env).run(spec.commandLine(), controller, json);
        }
        if (controller.url != null || controller.state != null || controller.tokenFile != null) {
            throw new ParameterException(spec.commandLine(), "--url, --state and --token-file ask the running "
                    + "controller for its plan, --mesh plans offline: give one or the other");
        }
        PrintWriter stdout = spec.commandLine().getOut();
        MeshInput.Read input = meshFile.read();
        if (input.mesh() == null) {
            print(stdout, null, input.problems());
            return 1;
        }
        Mesh mesh = input.mesh();
        List<Problem> problems = new ArrayList<>();
        Map<String, Declaration> acknowledged = applied == null ? Map.of() : acknowledged(mesh, problems);
        if (problems.stream().anyMatch(Problem::isError)) {
            print(stdout, null, problems);
            return 1;
        }
        Planning planning = Planner.plan(mesh, acknowledged, Map.of());
        problems.addAll(planning.composition().problems());
        print(stdout, planning.plan(), problems);
        if (problems.stream().anyMatch(Problem::isError)) {
            return 1;
        }
        return planning.plan().isEmpty() ? 0 : 2;
    }

    /** Each node's declaration from {@code DIR/<node>.json}; a file naming no node of the mesh is a warning. */
    private Map<String, Declaration> acknowledged(Mesh mesh, List<Problem> problems) {
        if (!Files.isDirectory(applied)) {
            problems.add(Problem.error("unreadable-file", "--applied " + applied + " is not a directory; give the "
                    + "directory that holds each node's last acknowledged declaration as <node>.json",
                    Location.of(applied.toString())));
            return Map.of();
        }
        Set<String> nodes = mesh.nodes().stream().map(Node::name).collect(Collectors.toSet());
        Map<String, Declaration> declarations = new TreeMap<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(applied, "*.json")) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                String node = name.substring(0, name.length() - ".json".length());
                if (!nodes.contains(node)) {
                    problems.add(new Problem("unknown-node", Severity.WARNING, "the mesh has no node \"" + node
                            + "\"; this declaration is not used (remove the file, or add the node to the mesh)",
                            null, Location.of(file.toString()), List.of()));
                    continue;
                }
                read(file, node, problems, declarations);
            }
        } catch (IOException e) {
            problems.add(Problem.error("unreadable-file", "cannot list " + applied + ": " + e.getMessage(),
                    Location.of(applied.toString())));
        }
        return declarations;
    }

    private static void read(Path file, String node, List<Problem> problems, Map<String, Declaration> into) {
        try {
            Declaration declaration = DeclarationReader.read(Files.readAllBytes(file), file.toString());
            if (!declaration.node().equals(node)) {
                problems.add(Problem.error("node-mismatch", "the file is named for node " + node + " but holds the "
                        + "declaration of node " + declaration.node() + "; rename the file to "
                        + declaration.node() + ".json", new Location(file.toString(), "/node", 0, 0)));
                return;
            }
            into.put(node, declaration);
        } catch (ManifestException e) {
            problems.addAll(e.problems());
        } catch (IOException e) {
            problems.add(Problem.error("unreadable-file", "cannot read the file: " + e.getMessage()
                    + "; check that it is readable", Location.of(file.toString())));
        }
    }

    private void print(PrintWriter stdout, Plan plan, List<Problem> problems) {
        if (json) {
            ObjectNode document = JsonOutput.MAPPER.createObjectNode();
            if (plan != null) {
                document.set("plan", JsonOutput.MAPPER.readTree(CanonicalJson.bytes(plan)));
            } else {
                document.putNull("plan");
            }
            ArrayNode list = document.putArray("problems");
            problems.forEach(p -> list.add(JsonReport.problem(p)));
            stdout.println(JsonOutput.MAPPER.writeValueAsString(document));
        } else {
            problems.forEach(p -> stdout.println((p.isError() ? "" : "warning: ") + p));
            if (plan != null) {
                stdout.print((problems.isEmpty() ? "" : "\n") + PlanText.of(plan));
            }
        }
        stdout.flush();
    }
}
