package dev.mesh.controller.core.compose;

import dev.mesh.controller.core.Assignment;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Seating;
import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.Provenance;
import dev.mesh.controller.manifest.Resolution;
import dev.mesh.controller.manifest.Resource;
import dev.mesh.controller.manifest.Substitution;
import dev.mesh.controller.manifest.Template;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where one templated value of a node's declaration came from: the module and the place in its
 * manifest, and what each reference in it resolved to (the seat's holder node included). {@code
 * compose --explain} prints these; composition itself does not keep them, so the hot path pays
 * nothing for explanations nobody asked for.
 *
 * @param node the node whose declaration holds the value
 * @param field where the value lands in the declaration, e.g. {@code processes/postgres/env/PGDATA}
 * @param value the resolved value
 * @param module the module whose manifest holds the template
 * @param location the template in that manifest
 * @param references one entry per reference in the template, in order; empty for a literal
 */
public record Explanation(String node, String field, String value, String module, Location location,
        List<Provenance> references) {

    /** Checks and copies the parts. */
    public Explanation {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(location, "location");
        references = List.copyOf(references);
    }

    /**
     * Explains every templated value of one node's declaration: process and container {@code run}
     * and {@code env}, container mount sources, secret file paths and access paths. A value that does not resolve has no
     * explanation; composition reports it as a problem.
     *
     * @param mesh the mesh
     * @param nodeName the node
     * @return the explanations in declaration order (module, then the manifest's order); empty
     *     when the mesh has no such node
     */
    public static List<Explanation> of(Mesh mesh, String nodeName) {
        return of(mesh, List.of(nodeName));
    }

    /**
     * Explains the declarations of several nodes, seating the mesh once.
     *
     * @param mesh the mesh
     * @param nodeNames the nodes, in the order their explanations are wanted; names the mesh does
     *     not have are skipped
     * @return the explanations, node by node, each node's as {@link #of(Mesh, String)} gives them
     */
    public static List<Explanation> of(Mesh mesh, List<String> nodeNames) {
        Map<String, Node> nodes = new HashMap<>();
        mesh.nodes().forEach(node -> nodes.putIfAbsent(node.name(), node));
        Map<String, Manifest> modules = mesh.modulesByName();
        Seating seating = Seating.of(mesh.nodes(), modules, mesh.assignments());
        List<Explanation> explanations = new ArrayList<>();
        for (String nodeName : nodeNames) {
            Node node = nodes.get(nodeName);
            if (node == null) {
                continue;
            }
            mesh.assignments().stream().filter(a -> a.node().equals(nodeName)).map(Assignment::module).distinct()
                    .sorted().map(modules::get).filter(Objects::nonNull).forEach(manifest -> new Explainer(node,
                            manifest, Substitution.of(manifest, seating.bindings(node, mesh.layout())), explanations)
                            .explain());
        }
        return explanations;
    }

    /** One manifest's templates on one node. */
    private record Explainer(Node node, Manifest manifest, Substitution substitution, List<Explanation> into) {

        void explain() {
            for (Resource resource : manifest.resources()) {
                switch (resource) {
                    case Resource.Process process -> {
                        list("processes/" + process.name() + "/run", process.run());
                        map("processes/" + process.name() + "/env", process.env());
                    }
                    case Resource.Container container -> {
                        list("containers/" + container.name() + "/run", container.run());
                        map("containers/" + container.name() + "/env", container.env());
                        for (int i = 0; i < container.mounts().size(); i++) {
                            one("containers/" + container.name() + "/mounts/" + i + "/source",
                                    container.mounts().get(i).source());
                        }
                    }
                    case Resource.User user -> {
                        // No templates.
                    }
                    case Resource.Directory directory -> {
                        // Its path comes from the layout and its id: no templates.
                    }
                }
            }
            manifest.ownSecrets().forEach((name, path) -> one("secrets/" + manifest.module() + "/" + name, path));
            for (int i = 0; i < manifest.accesses().size(); i++) {
                one("accesses/" + manifest.module() + "/" + i, manifest.accesses().get(i).path());
            }
        }

        private void list(String field, List<Template> templates) {
            for (int i = 0; i < templates.size(); i++) {
                one(field + "/" + i, templates.get(i));
            }
        }

        private void map(String field, Map<String, Template> templates) {
            templates.forEach((key, template) -> one(field + "/" + key, template));
        }

        private void one(String field, Template template) {
            if (substitution.resolve(template) instanceof Resolution.Resolved resolved) {
                into.add(new Explanation(node.name(), field, resolved.value(), manifest.module(), template.location(),
                        resolved.provenance()));
            }
        }
    }
}
