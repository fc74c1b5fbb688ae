package dev.mesh.controller.cli;

import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Composition;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.compose.Composer;
import dev.mesh.controller.core.compose.Explanation;
import dev.mesh.controller.manifest.Problem;
import dev.mesh.controller.manifest.Provenance;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code mesh-controller compose --mesh FILE [--node NAME] [--json] [--explain] [--out DIR]}:
 * every node's declaration, or the problems that stop it.
 */
@Command(name = "compose",
        mixinStandardHelpOptions = true,
        versionProvider = JarVersion.class,
        description = "Composes each node's declaration from the manifests of the modules assigned to it, offline. "
                + "A node whose templates do not resolve, or whose modules conflict, gets its problems instead; the "
                + "other nodes still compose.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every node (or the node asked for) composed",
            "1:a problem was found: in the mesh file, a manifest, or composition",
            "2:the command line is wrong"})
final class ComposeCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private MeshInput meshFile;

    @Option(names = "--node", paramLabel = "NAME", description = "Compose and print only this node.")
    private String node;

    @Option(names = "--json", description = "Print one JSON document: {\"declarations\":[…],\"problems\":[…]}.")
    private boolean json;

    @Option(names = "--explain",
            description = "Also say where each templated value came from: module, manifest place, references, holder.")
    private boolean explain;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Also write each declaration to DIR/<node>.json, the form plan --applied reads.")
    private Path out;

    @Override
    public Integer call() {
        MeshInput.Read input = meshFile.read();
        PrintWriter stdout = spec.commandLine().getOut();
        if (input.mesh() == null) {
            print(stdout, List.of(), input.problems(), List.of());
            return 1;
        }
        Mesh mesh = input.mesh();
        List<String> names = mesh.nodes().stream().map(Node::name).toList();
        if (node != null && !names.contains(node)) {
            throw new ParameterException(spec.commandLine(), "the mesh " + meshFile.file() + " has no node \"" + node
                    + "\"; its nodes are: " + String.join(", ", names));
        }
        Composition composition = Composer.compose(mesh);
        List<Declaration> declarations = composition.declarations().stream()
                .filter(d -> node == null || d.node().equals(node)).toList();
        List<Problem> problems = node == null ? composition.problems() : problemsOf(composition, node);
        List<Explanation> explanations = explain
                ? Explanation.of(mesh, declarations.stream().map(Declaration::node).toList()) : List.of();
        if (out != null) {
            write(declarations);
        }
        print(stdout, declarations, problems, explanations);
        boolean blocked = node == null ? !composition.blocked().isEmpty() : composition.blocked().containsKey(node);
        return blocked || problems.stream().anyMatch(Problem::isError) ? 1 : 0;
    }

    /** The node's own problems, and those of the mesh as a whole (which belong to no one node). */
    private static List<Problem> problemsOf(Composition composition, String node) {
        Set<Problem> ofNodes = new HashSet<>();
        composition.blocked().values().forEach(ofNodes::addAll);
        return composition.problems().stream()
                .filter(p -> !ofNodes.contains(p) || composition.blocked().getOrDefault(node, List.of()).contains(p))
                .toList();
    }

    private void print(PrintWriter stdout, List<Declaration> declarations, List<Problem> problems,
            List<Explanation> explanations) {
        if (json) {
            ObjectNode document = JsonOutput.MAPPER.createObjectNode();
            ArrayNode list = document.putArray("declarations");
            declarations.forEach(d -> list.add(JsonOutput.MAPPER.readTree(CanonicalJson.bytes(d))));
            ArrayNode problemList = document.putArray("problems");
            problems.forEach(p -> problemList.add(JsonReport.problem(p)));
            if (explain) {
                ArrayNode explained = document.putArray("explanations");
                explanations.forEach(e -> explanation(e, explained.addObject()));
            }
            stdout.println(JsonOutput.MAPPER.writeValueAsString(document));
        } else {
            problems.forEach(stdout::println);
            for (Declaration declaration : declarations) {
                stdout.println(summary(declaration));
                explanations.stream().filter(e -> e.node().equals(declaration.node()))
                        .forEach(e -> stdout.print(text(e)));
            }
            stdout.println(declarations.size() + " composed, " + problems.size() + " problem"
                    + (problems.size() == 1 ? "" : "s"));
        }
        stdout.flush();
    }

    private void write(List<Declaration> declarations) {
        try {
            Files.createDirectories(out);
            for (Declaration declaration : declarations) {
                Path file = out.resolve(declaration.node() + ".json");
                Files.writeString(file, JsonOutput.MAPPER.writerWithDefaultPrettyPrinter()
                        .writeValueAsString(JsonOutput.MAPPER.readTree(CanonicalJson.bytes(declaration))) + "\n");
            }
        } catch (IOException e) {
            throw new CommandException("cannot write the declarations to " + out + ": " + e.getMessage()
                    + "; check that the directory can be created and written", e);
        }
    }

    private static String summary(Declaration d) {
        return d.node() + ": " + d.revision() + " — " + count(d.accounts().size(), "account") + ", "
                + count(d.directories().size(), "directory") + ", " + count(d.secrets().size(), "secret") + ", "
                + count(d.accesses().size(), "access") + ", " + count(d.processes().size(), "process") + ", "
                + count(d.containers().size(), "container") + ", " + count(d.tools().size(), "tool")
                + (d.seats().isEmpty() ? "" : "; holds " + String.join(", ", d.seats()));
    }

    private static String count(int n, String noun) {
        String plural = noun.endsWith("y") ? noun.substring(0, noun.length() - 1) + "ies"
                : noun.endsWith("s") ? noun + "es" : noun + "s";
        return n + " " + (n == 1 ? noun : plural);
    }

    private static String text(Explanation e) {
        StringBuilder text = new StringBuilder("  ").append(e.field()).append(" = ").append(e.value())
                .append("\n      from ").append(e.module()).append(", ").append(e.location().file()).append(':')
                .append(e.location().line()).append(':').append(e.location().column()).append(' ')
                .append(e.location().pointer()).append('\n');
        for (Provenance reference : e.references()) {
            text.append("      ").append(reference.reference()).append(" = ").append(reference.value())
                    .append(reference.holder() == null ? "" : " (held by " + reference.holder() + ")").append('\n');
        }
        return text.toString();
    }

    private static void explanation(Explanation e, ObjectNode node) {
        node.put("node", e.node()).put("field", e.field()).put("value", e.value()).put("module", e.module());
        node.set("location", JsonReport.location(e.location()));
        ArrayNode references = node.putArray("references");
        for (Provenance reference : e.references()) {
            ObjectNode one = references.addObject().put("reference", reference.reference())
                    .put("value", reference.value());
            if (reference.holder() != null) {
                one.put("holder", reference.holder());
            }
        }
    }
}
