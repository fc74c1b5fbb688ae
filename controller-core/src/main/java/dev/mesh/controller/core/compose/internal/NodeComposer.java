package dev.mesh.controller.core.compose.internal;

import dev.mesh.controller.core.Built;
import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.Seating;
import dev.mesh.controller.core.internal.json.CanonicalOut;
import dev.mesh.controller.core.internal.json.DeclarationJson;
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
 * ({@link ModuleParts}), the template values {@link Resolutions} keeps, one SHA-256 and buffer
 * for the revisions, and the bytes of the shared values that the revisions' digests copy
 * ({@link DeclarationJson}).
 *
 * <p>Why: in the 10,000-node benchmark mesh every module runs on about 1,500 nodes, and these
 * parts were made again on each, as was a {@link MessageDigest} per declaration; they are most of
 * what a node's declaration would otherwise allocate besides its own values.
 *
 * <p>Not thread-safe; one composition (or one {@code IncrementalPlanner}) uses it at a time. It
 * knows manifests by identity, so the parts are those of the manifests it has seen; it composes
 * with one layout and one set of builds, and must be dropped when either changes.
 */
public final class NodeComposer {

    private final Layout layout;
    private final Map<String, Built> built;
    private final Resolutions resolutions = new Resolutions();
    private final Map<Manifest, ModuleParts> parts = new IdentityHashMap<>();
    private final CanonicalOut.Plain hashing = CanonicalOut.plain(CanonicalJson.sha256(), null);
    /** Values shared between declarations, by identity → their plain bytes ({@link DeclarationJson#fragment}). */
    private final Map<Object, byte[]> fragments = new IdentityHashMap<>();

    /**
     * @param layout the directory roots of every node it composes
     * @param built the builds done, by id: the artifacts of the declarations are pinned to them
     */
    public NodeComposer(Layout layout, Map<String, Built> built) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.built = Objects.requireNonNull(built, "built");
    }

    /**
     * Composes one node: a function of exactly the node, the manifests assigned to it, the holders
     * of the seats their templates reference (as the node sees them), the seats the node holds and
     * the layout, and the builds of the manifests' artifacts. {@code IncrementalPlanner} relies on
     * that to reuse a node's result.
     */
    public NodeDeclaration.Composed compose(Node node, List<Manifest> manifests, Seating seating) {
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
            known = ModuleParts.of(manifest, layout, built);
            parts.put(manifest, known);
            known.forEachValue(this::shared);
        }
        return known;
    }

    /**
     * Notes a value that declarations share by identity (a part of a module, an environment
     * resolved once for all nodes), so that digests copy its bytes instead of writing it again.
     *
     * @param value an account, directory, artifact, tool or environment that is never changed
     */
    void shared(Object value) {
        if (!fragments.containsKey(value)) {
            fragments.put(value, DeclarationJson.fragment(value));
        }
    }

    /** @return the revision of a declaration made with an empty one */
    String revision(Declaration unsigned) {
        return DeclarationJson.digest(unsigned, hashing, fragments);
    }
}
