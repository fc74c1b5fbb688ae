package dev.mesh.controller.core;

import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.Manifest;
import java.security.MessageDigest;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Composes nodes one at a time ({@link NodeDeclaration}), sharing between them what does not
 * depend on the node: each module's accounts, directories with their paths, artifacts and tools
 * ({@link ModuleParts}), the template values {@link Resolutions} keeps, and one SHA-256 for the
 * revisions.
 *
 * <p>Why: in the 10,000-node benchmark mesh every module runs on about 1,500 nodes, and these
 * parts were made again on each, as was a {@link MessageDigest} per declaration; they are most of
 * what a node's declaration would otherwise allocate besides its own values.
 *
 * <p>Not thread-safe; one composition (or one {@link IncrementalPlanner}) uses it at a time. It
 * knows manifests by identity, so the parts are those of the manifests it has seen; it composes
 * with one layout and must be dropped when the layout changes.
 */
final class NodeComposer {

    private final Layout layout;
    private final Resolutions resolutions = new Resolutions();
    private final Map<Manifest, ModuleParts> parts = new IdentityHashMap<>();
    private final MessageDigest sha = MeshDigest.sha256();

    /** @param layout the directory roots of every node it composes */
    NodeComposer(Layout layout) {
        this.layout = Objects.requireNonNull(layout, "layout");
    }

    /**
     * Composes one node: a function of exactly the node, the manifests assigned to it, the holders
     * of the seats their templates reference (as the node sees them), the seats the node holds and
     * the layout. {@link IncrementalPlanner} relies on that to reuse a node's result.
     */
    NodeDeclaration.Composed compose(Node node, List<Manifest> manifests, Seating seating) {
        return NodeDeclaration.compose(node, manifests, seating, this);
    }

    Layout layout() {
        return layout;
    }

    Resolutions resolutions() {
        return resolutions;
    }

    /** @return the parts of the manifest's module that are the same on every node */
    ModuleParts parts(Manifest manifest) {
        ModuleParts known = parts.get(manifest);
        if (known == null) {
            known = ModuleParts.of(manifest, layout);
            parts.put(manifest, known);
        }
        return known;
    }

    /** @return the revision of a declaration made with an empty one */
    String revision(Declaration unsigned) {
        return DeclarationJson.digest(unsigned, sha);
    }
}
