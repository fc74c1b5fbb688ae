package dev.mesh.controller.core;

import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.Problem;
import dev.mesh.controller.manifest.Resolution;
import dev.mesh.controller.manifest.Resource;
import dev.mesh.controller.manifest.Substitution;
import dev.mesh.controller.manifest.Template;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** One node's declaration being composed, module by module, with the conflicts between them. */
final class NodeDeclaration {

    /**
     * A node's composition: its declaration, or the problems that stopped it.
     *
     * @param node the node's name
     * @param declaration the declaration, or {@code null} when the node is blocked
     * @param problems why the node is blocked; empty when it composed
     */
    record Composed(String node, Declaration declaration, List<Problem> problems) {
        Composed {
            problems = List.copyOf(problems);
        }
    }

    /** A value and where it was declared, to name both sides of a conflict. */
    private record Sourced<T>(T value, String module, Location location) {
    }

    private final Node node;
    private final Seating seating;
    private final Layout layout;
    private final Resolutions resolutions;
    private final List<Problem> problems = new ArrayList<>();
    private final Map<String, Sourced<Declaration.Account>> accounts = new TreeMap<>();
    private final Map<String, Sourced<Declaration.Directory>> directories = new TreeMap<>();
    private final Map<String, Sourced<Declaration.Process>> processes = new TreeMap<>();
    private final List<Declaration.Secret> secrets = new ArrayList<>();
    private final List<Declaration.Access> accesses = new ArrayList<>();
    private final List<Declaration.Container> containers = new ArrayList<>();
    private final List<Declaration.Tool> tools = new ArrayList<>();

    private NodeDeclaration(Node node, Seating seating, Layout layout, Resolutions resolutions) {
        this.node = node;
        this.seating = seating;
        this.layout = layout;
        this.resolutions = resolutions;
    }

    /**
     * Composes one node: a function of exactly the node, the manifests assigned to it, the holders
     * of the seats their templates reference (as the node sees them), the seats the node holds and
     * the layout. {@link IncrementalPlanner} relies on that to reuse a node's result.
     */
    static Composed compose(Node node, List<Manifest> manifests, Seating seating, Layout layout,
            Resolutions resolutions) {
        NodeDeclaration composed = new NodeDeclaration(node, seating, layout, resolutions);
        manifests.forEach(composed::add);
        return composed.problems.isEmpty()
                ? new Composed(node.name(), composed.declaration(seating.heldBy(node)), List.of())
                : new Composed(node.name(), null, composed.problems);
    }

    private void add(Manifest manifest) {
        Substitution substitution = Substitution.of(manifest, seating.bindings(node, layout));
        String module = manifest.module();
        for (Resource resource : manifest.resources()) {
            switch (resource) {
                case Resource.User user -> account(module, user);
                case Resource.Directory directory -> directory(module, directory);
                case Resource.Process process -> process(manifest, substitution, process);
                case Resource.Container container -> container(module, substitution, container);
            }
        }
        manifest.ownSecrets().forEach((name, path) -> secrets.add(new Declaration.Secret(module, name,
                resolve(substitution, path), manifest.secretsOwner(), "0600")));
        manifest.accesses().forEach(access -> accesses.add(new Declaration.Access(module,
                resolve(substitution, access.path()), access.mode().name().toLowerCase(Locale.ROOT))));
        manifest.tools().forEach(tool -> tools.add(new Declaration.Tool(module, tool)));
    }

    private Declaration declaration(List<String> seats) {
        Declaration unsigned = new Declaration(node.name(), "", values(accounts), values(directories),
                sorted(secrets, Comparator.comparing(Declaration.Secret::path)),
                sorted(accesses, Comparator.comparing(Declaration.Access::module).thenComparing(Declaration.Access::path)
                        .thenComparing(Declaration.Access::mode)),
                values(processes), sorted(containers, Comparator.comparing(Declaration.Container::name)
                        .thenComparing(Declaration.Container::module)),
                seats, sorted(tools, Comparator.comparing(Declaration.Tool::module).thenComparing(Declaration.Tool::name)));
        return unsigned.withRevision(DeclarationJson.digest(unsigned));
    }

    private void account(String module, Resource.User user) {
        Declaration.Account account = new Declaration.Account(user.name(), orEmpty(user.shell()), orEmpty(user.home()));
        Sourced<Declaration.Account> first = accounts.putIfAbsent(user.name(),
                new Sourced<>(account, module, user.location()));
        if (first != null && !first.value().equals(account)) {
            conflict("account-conflict", "the account \"" + user.name() + "\" is declared by modules " + first.module()
                    + " and " + module + " with a different shell or home (" + describe(first.value()) + " against "
                    + describe(account) + "); make the two declarations agree", user.location(), first.location());
        }
    }

    private void directory(String module, Resource.Directory directory) {
        String path = layout.pathOf(module, directory);
        Sourced<Declaration.Directory> first = directories.putIfAbsent(path, new Sourced<>(new Declaration.Directory(
                module, directory.id(), path, directory.mode(), directory.owner()), module, directory.location()));
        if (first != null) {
            conflict("directory-conflict", "the directory " + path + " is declared by module " + first.module()
                    + " and by module " + module + " on node " + node.name() + "; give one of them another id or "
                    + "place", directory.location(), first.location());
        }
    }

    private void process(Manifest manifest, Substitution substitution, Resource.Process process) {
        String module = manifest.module();
        List<String> run = process.run().stream().map(t -> resolve(substitution, t)).toList();
        Map<String, String> env = resolve(substitution, process.env());
        Declaration.Artifact artifact = manifest.artifact(process.artifact())
                .map(a -> new Declaration.Artifact(module, a.name(), a.system()))
                .orElseThrow(() -> new IllegalStateException("a parsed manifest names only declared artifacts"));
        if (!artifact.system().equals(node.system())) {
            problems.add(Problem.error("system-mismatch", "node " + node.name() + " runs " + node.system()
                    + ", but process \"" + process.name() + "\" of module " + module + " runs the artifact "
                    + artifact.name() + ", which is built for " + artifact.system() + "; assign the module to a "
                    + artifact.system() + " node, or build the artifact for " + node.system(), process.location()));
        }
        Declaration.Preparation prepare = manifest.prepares()
                ? new Declaration.Preparation(List.of(run.getFirst(), "prepare"), process.user(), env) : null;
        Sourced<Declaration.Process> first = processes.putIfAbsent(process.name(), new Sourced<>(
                new Declaration.Process(module, process.name(), artifact, run, process.user(), env,
                        process.replaces(), prepare), module, process.location()));
        if (first != null) {
            conflict("process-conflict", "two processes named \"" + process.name() + "\" would run on node "
                    + node.name() + ", from modules " + first.module() + " and " + module + "; rename one or assign "
                    + "the modules to different nodes", process.location(), first.location());
        }
    }

    private void container(String module, Substitution substitution, Resource.Container container) {
        containers.add(new Declaration.Container(module, container.name(), container.image(),
                orEmpty(container.user()), resolve(substitution, container.env()),
                container.mounts().stream().map(m -> new Declaration.Mount(m.source(), m.target(),
                        m.mode().name().toLowerCase(Locale.ROOT))).toList(),
                orEmpty(container.network()), container.run().stream().map(t -> resolve(substitution, t)).toList()));
    }

    /** The resolved value, or the empty string after recording why not (the node then gets no declaration). */
    private String resolve(Substitution substitution, Template template) {
        return switch (resolutions.resolve(template, substitution, seating, node)) {
            case Resolution.Resolved resolved -> resolved.value();
            case Resolution.Unresolved unresolved -> {
                problems.addAll(unresolved.problems());
                yield "";
            }
        };
    }

    private Map<String, String> resolve(Substitution substitution, Map<String, Template> templates) {
        Map<String, String> resolved = new TreeMap<>();
        templates.forEach((key, template) -> resolved.put(key, resolve(substitution, template)));
        return resolved;
    }

    private void conflict(String code, String message, Location at, Location first) {
        problems.add(Problem.error(code, message, at).withRelated(List.of(first)));
    }

    private static <T> List<T> values(Map<String, Sourced<T>> byKey) {
        return byKey.values().stream().map(Sourced::value).toList();
    }

    private static <T> List<T> sorted(List<T> items, Comparator<T> order) {
        return items.stream().sorted(order).toList();
    }

    private static String describe(Declaration.Account account) {
        return "shell " + (account.shell().isEmpty() ? "default" : account.shell()) + ", home "
                + (account.home().isEmpty() ? "default" : account.home());
    }

    private static String orEmpty(String value) {
        return value == null ? "" : value;
    }
}
