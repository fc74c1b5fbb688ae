package dev.mesh.controller.core.compose.internal;

import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Seating;
import dev.mesh.controller.core.Tool;
import dev.mesh.controller.core.compose.internal.ModuleParts.Sourced;
import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.Mount;
import dev.mesh.controller.manifest.Problem;
import dev.mesh.controller.manifest.Resolution;
import dev.mesh.controller.manifest.Resource;
import dev.mesh.controller.manifest.SeatHolder;
import dev.mesh.controller.manifest.Substitution;
import dev.mesh.controller.manifest.Template;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/** One node's declaration being composed, module by module, with the conflicts between them. */
public final class NodeDeclaration {

    /**
     * A node's composition: its declaration, or the problems that stopped it.
     *
     * @param node the node's name
     * @param declaration the declaration, or {@code null} when the node is blocked
     * @param problems why the node is blocked; empty when it composed
     */
    public record Composed(String node, Declaration declaration, List<Problem> problems) {
        public Composed {
            problems = List.copyOf(problems);
        }
    }

    private static final Comparator<Declaration.Secret> SECRETS = Comparator.comparing(Declaration.Secret::path);
    private static final Comparator<Declaration.Access> ACCESSES = Comparator.comparing(Declaration.Access::module)
            .thenComparing(Declaration.Access::path).thenComparing(Declaration.Access::mode);
    private static final Comparator<Declaration.Container> CONTAINERS = Comparator
            .comparing(Declaration.Container::name).thenComparing(Declaration.Container::module);
    private static final Comparator<Declaration.Tool> TOOLS = Comparator.comparing(Declaration.Tool::module)
            .thenComparing(Declaration.Tool::name);

    private final Node node;
    private final Seating seating;
    private final NodeComposer composer;
    /** Resolves a template of the module being added with its substitution on this node. */
    private final Function<Template, Resolution> substitute = this::substitute;
    /** The module being added, and its substitution on this node once a template needed it. */
    private Manifest manifest;
    private Substitution substitution;
    private final List<Problem> problems = new ArrayList<>();
    private final Map<String, Sourced<Declaration.Account>> accounts = new TreeMap<>();
    private final Map<String, Sourced<Declaration.Directory>> directories = new TreeMap<>();
    private final Map<String, Sourced<Declaration.Process>> processes = new TreeMap<>();
    private final List<Declaration.Secret> secrets = new ArrayList<>();
    private final List<Declaration.Access> accesses = new ArrayList<>();
    private final List<Declaration.Container> containers = new ArrayList<>();
    private final List<Declaration.Tool> tools = new ArrayList<>();

    private NodeDeclaration(Node node, Seating seating, NodeComposer composer) {
        this.node = node;
        this.seating = seating;
        this.composer = composer;
    }

    /** Composes one node ({@link NodeComposer#compose}). */
    static Composed compose(Node node, List<Manifest> manifests, Seating seating, NodeComposer composer) {
        NodeDeclaration composed = new NodeDeclaration(node, seating, composer);
        manifests.forEach(composed::add);
        return composed.problems.isEmpty()
                ? new Composed(node.name(), composed.declaration(seating.heldBy(node)), List.of())
                : new Composed(node.name(), null, composed.problems);
    }

    private void add(Manifest added) {
        manifest = added;
        substitution = null;
        ModuleParts parts = composer.parts(manifest);
        String module = manifest.module();
        for (Resource resource : manifest.resources()) {
            switch (resource) {
                case Resource.User user -> account(parts.account(user));
                case Resource.Directory directory -> directory(parts.directory(directory));
                case Resource.Process process -> process(process, parts.artifact(process));
                case Resource.Container container -> container(module, container);
            }
        }
        manifest.ownSecrets().forEach((name, path) -> secrets.add(new Declaration.Secret(module, name,
                resolve(path), manifest.secretsOwner(), "0600")));
        manifest.accesses().forEach(access -> accesses.add(new Declaration.Access(module,
                resolve(access.path()), access.mode().name().toLowerCase(Locale.ROOT))));
        if (!parts.tools().isEmpty()) {
            tools.addAll(parts.tools());
        }
    }

    private Declaration declaration(List<String> seats) {
        secrets.sort(SECRETS);
        accesses.sort(ACCESSES);
        containers.sort(CONTAINERS);
        tools.sort(TOOLS);
        Declaration unsigned = new Declaration(node.name(), "", values(accounts), values(directories), secrets,
                accesses, values(processes), containers, seats, tools);
        return unsigned.withRevision(composer.revision(unsigned));
    }

    private void account(Sourced<Declaration.Account> account) {
        Sourced<Declaration.Account> first = accounts.putIfAbsent(account.value().name(), account);
        if (first != null && !first.value().equals(account.value())) {
            conflict("account-conflict", "the account \"" + account.value().name() + "\" is declared by modules "
                    + first.module() + " and " + account.module() + " with a different shell or home ("
                    + describe(first.value()) + " against " + describe(account.value())
                    + "); make the two declarations agree", account.location(), first.location());
        }
    }

    private void directory(Sourced<Declaration.Directory> directory) {
        String path = directory.value().path();
        Sourced<Declaration.Directory> first = directories.putIfAbsent(path, directory);
        if (first != null) {
            conflict("directory-conflict", "the directory " + path + " is declared by module " + first.module()
                    + " and by module " + directory.module() + " on node " + node.name() + "; give one of them "
                    + "another id or place", directory.location(), first.location());
        }
    }

    private void process(Resource.Process process, Declaration.Artifact artifact) {
        String module = manifest.module();
        List<String> run = resolve(process.run());
        Map<String, String> env = resolve(process.env());
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
                        process.replaces(), process.overlap(), prepare), module, process.location()));
        if (first != null) {
            conflict("process-conflict", "two processes named \"" + process.name() + "\" would run on node "
                    + node.name() + ", from modules " + first.module() + " and " + module + "; rename one or assign "
                    + "the modules to different nodes", process.location(), first.location());
        }
    }

    private void container(String module, Resource.Container container) {
        List<Declaration.Mount> mounts = new ArrayList<>(container.mounts().size());
        for (Mount mount : container.mounts()) {
            mounts.add(new Declaration.Mount(resolve(mount.source()), mount.target(),
                    mount.mode().name().toLowerCase(Locale.ROOT)));
        }
        containers.add(new Declaration.Container(module, container.name(), container.image(),
                orEmpty(container.user()), resolve(container.env()), List.copyOf(mounts),
                orEmpty(container.network()), resolve(container.run())));
    }

    /** The resolved value, or the empty string after recording why not (the node then gets no declaration). */
    private String resolve(Template template) {
        return switch (composer.resolutions().resolve(template, substitute, seating, node)) {
            case Resolution.Resolved resolved -> resolved.value();
            case Resolution.Unresolved unresolved -> {
                problems.addAll(unresolved.problems());
                yield "";
            }
        };
    }

    private List<String> resolve(List<Template> templates) {
        String[] resolved = new String[templates.size()];
        for (int i = 0; i < resolved.length; i++) {
            resolved[i] = resolve(templates.get(i));
        }
        return List.of(resolved);
    }

    /** The substitution of the module being added, made when a template first needs it. */
    private Resolution substitute(Template template) {
        if (substitution == null) {
            substitution = Substitution.of(manifest, seating.bindings(node, composer.layout()));
        }
        return substitution.resolve(template);
    }

    /**
     * The values of an environment: shared with every node that sees the same holders of the seats
     * it references, unless a template in it is resolved on each node ({@link Resolutions}).
     */
    private Map<String, String> resolve(Map<String, Template> templates) {
        Resolutions resolutions = composer.resolutions();
        List<SeatHolder> holders = resolutions.holders(templates, seating, node);
        if (holders != null) {
            SortedMap<String, String> known = resolutions.values(templates, holders);
            if (known != null) {
                return known;
            }
        }
        int problemsBefore = problems.size();
        SortedMap<String, String> resolved = new TreeMap<>();
        templates.forEach((key, template) -> resolved.put(key, resolve(template)));
        if (holders == null || problems.size() > problemsBefore) {
            return resolved;
        }
        SortedMap<String, String> shared = Collections.unmodifiableSortedMap(resolved);
        resolutions.remember(templates, holders, shared);
        composer.shared(shared);
        return shared;
    }

    private void conflict(String code, String message, Location at, Location first) {
        problems.add(Problem.error(code, message, at).withRelated(List.of(first)));
    }

    private static <T> List<T> values(Map<String, Sourced<T>> byKey) {
        Object[] values = new Object[byKey.size()];
        int i = 0;
        for (Sourced<T> sourced : byKey.values()) {
            values[i++] = sourced.value();
        }
        @SuppressWarnings("unchecked")
        List<T> list = (List<T>) List.of(values);
        return list;
    }

    private static String describe(Declaration.Account account) {
        return "shell " + (account.shell().isEmpty() ? "default" : account.shell()) + ", home "
                + (account.home().isEmpty() ? "default" : account.home());
    }

    private static String orEmpty(String value) {
        return value == null ? "" : value;
    }
}
