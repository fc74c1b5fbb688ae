package dev.mesh.controller.manifest.internal;

import static dev.mesh.controller.manifest.Location.child;

import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.ManifestException;
import dev.mesh.controller.manifest.MeshFile;
import dev.mesh.controller.manifest.Problem;
import dev.mesh.controller.manifest.Suggestions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The strict mesh-file reader: the same JSON reading, checks and located problems as manifests,
 * and the manifests the file names, read from their files or inline. Stateless per call.
 */
public final class MeshFileReader {

    private static final List<String> ROOT = List.of("$schema", "nodes", "modules", "assignments", "layout");
    private static final List<String> NODE = List.of("name", "address", "system");
    private static final List<String> ASSIGNMENT = List.of("module", "node");
    private static final List<String> LAYOUT = List.of("mesh", "modules");
    private static final Form ADDRESS = Form.of("A-Za-z0-9:", "A-Za-z0-9.:-", 1, 253);
    private static final String ADDRESS_RULE = "a host name or an IP address: letters, digits, '.', ':' and '-', "
            + "e.g. \"10.20.0.11\"";

    private final String file;
    private final Path directory;
    private final Checks checks;
    private final Fields fields;
    /** Names of the nodes and modules read so far: assignments are read after both. */
    private Set<String> nodeNames = Set.of();
    private Set<String> moduleNames = Set.of();
    private boolean nodesComplete;
    private boolean modulesComplete;
    private final Map<String, Location> assigned = new HashMap<>();

    private MeshFileReader(String file, Path directory, List<Problem> problems) {
        this.file = file;
        this.directory = directory;
        // The warnings of a mesh file's inline manifests are not shown: validate shows a manifest's.
        this.checks = new Checks(file, problems, new ArrayList<>());
        this.fields = new Fields(checks, new Declared());
    }

    /**
     * @throws ManifestException with every problem of the file and of the manifests it names
     */
    public static MeshFile read(Path path) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (IOException | SecurityException e) {
            throw new ManifestException(List.of(Problem.error("unreadable-file", "cannot read the mesh file: "
                    + ManifestReader.why(path, e) + "; check the path and that the file is readable",
                    Location.of(path.toString()))));
        }
        Path parent = path.getParent();
        return read(bytes, path.toString(), parent == null ? Path.of("") : parent);
    }

    /**
     * @throws ManifestException with every problem of the file and of the manifests it names
     */
    public static MeshFile read(byte[] bytes, String file, Path directory) {
        List<Problem> problems = new ArrayList<>();
        Json root = JsonReader.read(bytes, file, problems);
        MeshFile mesh = root == null ? null : new MeshFileReader(file, directory, problems).mesh(root);
        if (!problems.isEmpty()) {
            throw new ManifestException(inDocumentOrder(problems));
        }
        return mesh;
    }

    /** The mesh file's problems first, then each manifest file's, each file's in document order. */
    private static List<Problem> inDocumentOrder(List<Problem> problems) {
        Map<String, Integer> fileOrder = new HashMap<>();
        problems.forEach(p -> fileOrder.putIfAbsent(p.location().file(), fileOrder.size()));
        List<Problem> sorted = new ArrayList<>(problems);
        sorted.sort(Comparator.comparingInt((Problem p) -> fileOrder.get(p.location().file()))
                .thenComparingInt(p -> p.location().line()).thenComparingInt(p -> p.location().column()));
        return sorted;
    }

    private MeshFile mesh(Json node) {
        Json.Obj object = checks.object(node, "", "a mesh file");
        if (object == null) {
            return null;
        }
        int before = checks.count();
        checks.onlyKnown(object, "", "the mesh file", ROOT);
        String owner = "the mesh file";
        Json nodesValue = Fields.value(object, "nodes");
        Json modulesValue = Fields.value(object, "modules");
        Json assignmentsValue = Fields.value(object, "assignments");
        Json layoutValue = Fields.value(object, "layout");
        fields.get(Fields.value(object, "$schema"), object, "", "$schema", false, owner, "",
                (n, p) -> checks.plain(n, p, "\"$schema\""));
        checks.present(nodesValue, object, "", "nodes", true, owner, "the list of nodes, e.g. [{\"name\": \"alpha\", "
                + "\"address\": \"10.20.0.11\", \"system\": \"debian-12\"}]");
        checks.present(modulesValue, object, "", "modules", true, owner, "the list of module manifests: paths "
                + "relative to the mesh file, or manifests inline");
        checks.present(assignmentsValue, object, "", "assignments", true, owner, "the list of assignments, e.g. "
                + "[{\"module\": \"mesh-store\", \"node\": \"alpha\"}], or [] for none");
        List<MeshFile.Node> nodes = fields.list(nodesValue, "", "nodes", owner, "node", this::node);
        List<MeshFile.Module> modules = fields.list(modulesValue, "", "modules", owner, "module", this::module);
        // An entry that did not read has no name to check assignments against: say nothing rather than wrong.
        nodesComplete = !(nodesValue instanceof Json.Arr array) || array.items().size() == nodes.size();
        modulesComplete = !(modulesValue instanceof Json.Arr array) || array.items().size() == modules.size();
        nodeNames = unique(nodes, MeshFile.Node::name, MeshFile.Node::location, "node").keySet();
        Map<String, MeshFile.Module> byName = unique(modules, m -> m.manifest().module(), MeshFile.Module::location,
                "module");
        moduleNames = byName.keySet();
        unique(List.copyOf(byName.values()), m -> m.manifest().slug(), MeshFile.Module::location, "slug");
        List<MeshFile.Assignment> assignments = fields.list(assignmentsValue, "", "assignments", owner, "assignment",
                this::assignment);
        Layout layout = layoutValue == null ? Layout.DEFAULT : layout(layoutValue, "/layout");
        return checks.count() > before || layout == null ? null
                : new MeshFile(file, nodes, modules, assignments, layout);
    }

    private MeshFile.Node node(Json value, String pointer) {
        Json.Obj object = checks.object(value, pointer, "a node");
        if (object == null) {
            return null;
        }
        checks.onlyKnown(object, pointer, "a node", NODE);
        String name = fields.matching(Fields.value(object, "name"), object, pointer, "name", true, "this node",
                "node name", Patterns.NAME, Patterns.NAME_RULE);
        String address = fields.matching(Fields.value(object, "address"), object, pointer, "address", true,
                "this node", "address", ADDRESS, ADDRESS_RULE);
        String system = fields.matching(Fields.value(object, "system"), object, pointer, "system", true, "this node",
                "system", Patterns.SYSTEM, Patterns.SYSTEM_RULE);
        return name == null || address == null || system == null ? null
                : new MeshFile.Node(name, address, system, checks.at(object, pointer));
    }

    /** A path to a manifest file, relative to the mesh file, or a manifest inline. */
    private MeshFile.Module module(Json value, String pointer) {
        if (value instanceof Json.Obj) {
            Manifest manifest = ManifestReader.read(value, file, pointer, checks.problems(), checks.warnings());
            return manifest == null ? null : new MeshFile.Module(manifest, checks.at(value, pointer));
        }
        if (!(value instanceof Json.Str)) {
            checks.error("wrong-type", "a module must be the path of its manifest (a string) or the manifest itself "
                    + "(an object), but it is " + value.typeName(), checks.at(value, pointer));
            return null;
        }
        String relative = checks.nonEmpty(value, pointer, "a module's path");
        if (relative == null) {
            return null;
        }
        Location at = checks.at(value, pointer);
        Path path = directory.resolve(relative);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (IOException | SecurityException e) {
            checks.error("unreadable-file", "cannot read the manifest " + path + ": " + ManifestReader.why(path, e)
                    + "; module paths are relative to the mesh file's directory: fix the path, or put the manifest "
                    + "inline", at);
            return null;
        }
        try {
            return new MeshFile.Module(ManifestReader.read(bytes, path.toString()).manifest(), at);
        } catch (ManifestException e) {
            checks.problems().addAll(e.problems());
            return null;
        }
    }

    private MeshFile.Assignment assignment(Json value, String pointer) {
        Json.Obj object = checks.object(value, pointer, "an assignment");
        if (object == null) {
            return null;
        }
        checks.onlyKnown(object, pointer, "an assignment", ASSIGNMENT);
        Json moduleValue = Fields.value(object, "module");
        Json nodeValue = Fields.value(object, "node");
        String module = fields.matching(moduleValue, object, pointer, "module", true, "this assignment",
                "module name", Patterns.NAME, Patterns.NAME_RULE);
        String node = fields.matching(nodeValue, object, pointer, "node", true, "this assignment", "node name",
                Patterns.NAME, Patterns.NAME_RULE);
        if (module == null || node == null) {
            return null;
        }
        Location at = checks.at(object, pointer);
        if (modulesComplete && !moduleNames.contains(module)) {
            unknown("unknown-module", "the mesh has no module \"" + module + "\"; add its manifest to \"modules\", "
                    + "or assign one of: " + String.join(", ", moduleNames), checks.at(moduleValue,
                    child(pointer, "module")), module, moduleNames);
        }
        if (nodesComplete && !nodeNames.contains(node)) {
            unknown("unknown-node", "the mesh has no node \"" + node + "\"; add it to \"nodes\", or assign the "
                    + "module to one of: " + String.join(", ", nodeNames), checks.at(nodeValue,
                    child(pointer, "node")), node, nodeNames);
        }
        Location first = assigned.putIfAbsent(module + " " + node, at);
        if (first != null) {
            checks.add(Problem.error("duplicate-assignment", "module " + module + " is assigned to node " + node
                    + " twice (first at " + first.pointer() + ", line " + first.line() + "); remove one", at)
                    .withRelated(List.of(first)));
        }
        return new MeshFile.Assignment(module, node, at);
    }

    private Layout layout(Json value, String pointer) {
        Json.Obj object = checks.object(value, pointer, "\"layout\"");
        if (object == null) {
            return null;
        }
        checks.onlyKnown(object, pointer, "\"layout\"", LAYOUT);
        String mesh = fields.get(Fields.value(object, "mesh"), object, pointer, "mesh", false, "\"layout\"", "",
                (n, p) -> checks.absolutePath(n, p, "the mesh root"));
        String modules = fields.get(Fields.value(object, "modules"), object, pointer, "modules", false,
                "\"layout\"", "", (n, p) -> checks.absolutePath(n, p, "the modules root"));
        boolean bad = Fields.value(object, "mesh") != null && mesh == null
                || Fields.value(object, "modules") != null && modules == null;
        return bad ? null : new Layout(mesh == null ? Layout.DEFAULT.meshRoot() : mesh,
                modules == null ? Layout.DEFAULT.modulesRoot() : modules);
    }

    /** Items by key; a second item with a key already seen is a {@code duplicate-name} problem naming the first. */
    private <T> Map<String, T> unique(List<T> items, Function<T, String> key, Function<T, Location> where,
            String what) {
        Map<String, T> byKey = new LinkedHashMap<>();
        for (T item : items) {
            T first = byKey.putIfAbsent(key.apply(item), item);
            if (first != null) {
                Location there = where.apply(first);
                String code = what.equals("slug") ? "slug-conflict" : "duplicate-name";
                String fix = what.equals("slug") ? "give one of the modules another \"slug\""
                        : "remove or rename one";
                checks.add(Problem.error(code, "the " + what + " \"" + key.apply(item) + "\" appears twice in the "
                        + "mesh (first at " + there.pointer() + ", line " + there.line() + "); " + what + "s are unique"
                        + " in a mesh: " + fix, where.apply(item)).withRelated(List.of(there)));
            }
        }
        return byKey;
    }

    private void unknown(String code, String message, Location at, String name, Set<String> known) {
        Problem problem = Problem.error(code, message, at);
        checks.add(Suggestions.hint(name, known).map(problem::withHint).orElse(problem));
    }
}
