package dev.mesh.controller.core.compose.internal;

import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.internal.json.CanonicalOut;
import java.io.OutputStream;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.JsonGenerator;

/**
 * The digest of a plan's mesh inputs ({@code inputs.mesh}): a tree of SHA-256 digests, so that a
 * change of one node's assignments hashes that node's share again and then only the top, about
 * 32 bytes per node, instead of the whole mesh.
 *
 * <p>Definition ({@code docs/composition-and-planning.md}, "Plans"): {@code sha256:} and the hex
 * of SHA-256 over the raw 32-byte digests, concatenated, of
 * <ol>
 *   <li>the layout: the canonical JSON of the {@code Layout} record;
 *   <li>the module versions: the canonical JSON of the object module name → version;
 *   <li>one share per node name, in name order ({@link String#compareTo}), for every name the
 *       nodes or the assignments use: the canonical JSON of
 *       {@code {"modules":[…],"name":NAME,"nodes":[…]}} — the modules assigned to that name,
 *       sorted, each as often as it is assigned; the nodes of that name, in the mesh's order
 *       (one, or none when only assignments name it).
 * </ol>
 * Each part's size is fixed and its place given, so two different meshes give different digests
 * unless SHA-256 collides.
 *
 * <p>{@code Planner} computes it from nothing ({@link #of}); {@code IncrementalPlanner} keeps one
 * and updates the shares whose assignments changed ({@link #assigned}). Both go through the same
 * code, so they agree.
 *
 * <p>Not thread-safe: its planner serializes the calls.
 */
public final class MeshDigest {

    private static final int SIZE = 32;
    private static final CanonicalOut.Name ADDRESS = new CanonicalOut.Name("address");
    private static final CanonicalOut.Name MODULES = new CanonicalOut.Name("modules");
    private static final CanonicalOut.Name NAME = new CanonicalOut.Name("name");
    private static final CanonicalOut.Name NODES = new CanonicalOut.Name("nodes");
    private static final CanonicalOut.Name SYSTEM = new CanonicalOut.Name("system");

    private final MessageDigest sha = CanonicalJson.sha256();
    private final CanonicalOut.Plain hashing = CanonicalOut.plain(sha, null);
    private byte[] layout = new byte[SIZE];
    private byte[] versions = new byte[SIZE];
    /** Node name → the nodes of that name, in the mesh's order. */
    private Map<String, List<Node>> nodes = Map.of();
    /** Node name → the digest of its share. */
    private final Map<String, byte[]> shares = new TreeMap<>();

    /** @return the digest of {@code mesh}'s inputs (see the class comment) */
    public static String of(Mesh mesh) {
        return of(mesh, mesh.assignedByNode());
    }

    /**
     * @param assigned the mesh's assignments grouped as {@link Mesh#assignedByNode()} groups them
     * @return the digest of {@code mesh}'s inputs (see the class comment)
     */
    public static String of(Mesh mesh, Map<String, List<String>> assigned) {
        MeshDigest digest = new MeshDigest();
        digest.reset(mesh, assigned);
        return digest.digest();
    }

    /**
     * Starts over from {@code mesh}.
     *
     * @param assigned node name, as assignments name it → its modules, sorted, each as often as it is
     *     assigned; a name may be missing when it has none
     */
    public void reset(Mesh mesh, Map<String, List<String>> assigned) {
        Map<String, String> moduleVersions = new TreeMap<>();
        mesh.modules().forEach(m -> moduleVersions.put(m.module(), m.version()));
        layout = hash(CanonicalJson.bytes(mesh.layout()));
        versions = hash(CanonicalJson.bytes(moduleVersions));
        nodes = new HashMap<>();
        mesh.nodes().forEach(node -> nodes.computeIfAbsent(node.name(), n -> new ArrayList<>(1)).add(node));
        shares.clear();
        nodes.keySet().forEach(name -> share(name, assigned.getOrDefault(name, List.of())));
        assigned.forEach((name, modules) -> {
            if (!nodes.containsKey(name)) {
                share(name, modules);
            }
        });
    }

    /**
     * @param node a node name, as assignments name it
     * @param modules the modules now assigned to it, sorted, each as often as it is assigned
     */
    public void assigned(String node, List<String> modules) {
        share(node, modules);
    }

    /** @return {@code sha256:} and the hex digest */
    public String digest() {
        byte[] all = new byte[(2 + shares.size()) * SIZE];
        System.arraycopy(layout, 0, all, 0, SIZE);
        System.arraycopy(versions, 0, all, SIZE, SIZE);
        int at = 2 * SIZE;
        for (byte[] share : shares.values()) {
            System.arraycopy(share, 0, all, at, SIZE);
            at += SIZE;
        }
        return CanonicalJson.hex(sha.digest(all));
    }

    private void share(String name, List<String> modules) {
        List<Node> named = nodes.getOrDefault(name, List.of());
        if (named.isEmpty() && modules.isEmpty()) {
            shares.remove(name);
            return;
        }
        write(hashing.restart(), name, modules, named);
        if (!hashing.finish()) {
            hashing.restart();
            try (JsonGenerator json = CanonicalJson.generator(new DigestOutputStream(OutputStream.nullOutputStream(),
                    sha))) {
                write(CanonicalOut.generated(json), name, modules, named);
            }
        }
        shares.put(name, sha.digest());
    }

    /** A node's share: {@code {"modules":[…],"name":NAME,"nodes":[…]}}. */
    private static void write(CanonicalOut json, String name, List<String> modules, List<Node> named) {
        json.writeStartObject();
        json.writeName(MODULES);
        json.writeStartArray();
        for (String module : modules) {
            json.writeString(module);
        }
        json.writeEndArray();
        json.writeName(NAME);
        json.writeString(name);
        json.writeName(NODES);
        json.writeStartArray();
        for (Node node : named) {
            json.writeStartObject();
            json.writeName(ADDRESS);
            json.writeString(node.address());
            json.writeName(NAME);
            json.writeString(node.name());
            json.writeName(SYSTEM);
            json.writeString(node.system());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    private byte[] hash(byte[] bytes) {
        return sha.digest(bytes);
    }
}
