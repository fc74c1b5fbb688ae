package dev.mesh.controller.core.compose.internal;

import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Node;
import dev.mesh.controller.core.internal.json.CanonicalOut;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.JsonGenerator;

/**
 * The digest of a plan's mesh inputs ({@code inputs.mesh}): a tree of SHA-256 digests, so that a
 * change of one node's assignments hashes that node's share again, its bucket, and the top — the
 * same few kilobytes whatever the mesh's size — instead of the whole mesh.
 *
 * <p>Definition ({@code docs/composition-and-planning.md}, "Plans"): {@code sha256:} and the hex
 * of SHA-256 over the raw 32-byte digests, concatenated, of
 * <ol>
 *   <li>the layout: the canonical JSON of the {@code Layout} record;
 *   <li>the module versions: the canonical JSON of the object module name → version;
 *   <li>{@value #BUCKETS} buckets, in order: bucket {@code b} is SHA-256 over the digests of the
 *       shares of the node names whose bucket is {@code b}, concatenated in name order
 *       ({@link String#compareTo}); an empty bucket is SHA-256 of nothing. A name's bucket is the
 *       first two bytes of SHA-256 of its UTF-8 bytes, as a big-endian number, shifted right by 6
 *       (its first 10 bits). A name has a share when the nodes or the assignments use it: the
 *       canonical JSON of {@code {"modules":[…],"name":NAME,"nodes":[…]}} — the modules assigned to
 *       that name, sorted, each as often as it is assigned; the nodes of that name, in the mesh's
 *       order (one, or none when only assignments name it).
 * </ol>
 * Each part's size is fixed and its place given, so two different meshes give different digests
 * unless SHA-256 collides.
 *
 * <p>{@code Planner} computes it from nothing ({@link #of}); {@code IncrementalPlanner} keeps one
 * and updates the shares whose assignments changed ({@link #assigned}), hashing again only their
 * buckets. Both go through the same code, so they agree.
 *
 * <p>Not thread-safe: its planner serializes the calls.
 */
public final class MeshDigest {

    /** How many buckets the shares fall into: 32 KB of bucket digests to hash at the top. */
    static final int BUCKETS = 1024;
    private static final int SIZE = 32;
    private static final byte[] EMPTY = CanonicalJson.sha256().digest();
    private static final CanonicalOut.Name ADDRESS = new CanonicalOut.Name("address");
    private static final CanonicalOut.Name MODULES = new CanonicalOut.Name("modules");
    private static final CanonicalOut.Name NAME = new CanonicalOut.Name("name");
    private static final CanonicalOut.Name NODES = new CanonicalOut.Name("nodes");
    private static final CanonicalOut.Name SYSTEM = new CanonicalOut.Name("system");

    private final MessageDigest sha = CanonicalJson.sha256();
    private final MessageDigest bucketing = CanonicalJson.sha256();
    private final CanonicalOut.Plain hashing = CanonicalOut.plain(sha, null);
    private byte[] layout = new byte[SIZE];
    private byte[] versions = new byte[SIZE];
    /** Node name → the nodes of that name, in the mesh's order. */
    private Map<String, List<Node>> nodes = Map.of();
    /** Per bucket: node name → the digest of its share. */
    private final List<TreeMap<String, byte[]>> shares = new ArrayList<>(BUCKETS);
    /** Every bucket's digest, concatenated after the layout's and the versions': what the top hashes. */
    private final byte[] top = new byte[(2 + BUCKETS) * SIZE];
    /** The buckets whose digest is not hashed again yet. */
    private final BitSet stale = new BitSet(BUCKETS);

    /** An empty digest: {@link #reset} gives it a mesh. */
    public MeshDigest() {
        for (int b = 0; b < BUCKETS; b++) {
            shares.add(new TreeMap<>());
        }
    }

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
        shares.forEach(TreeMap::clear);
        stale.set(0, BUCKETS);
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
        System.arraycopy(layout, 0, top, 0, SIZE);
        System.arraycopy(versions, 0, top, SIZE, SIZE);
        for (int b = stale.nextSetBit(0); b >= 0; b = stale.nextSetBit(b + 1)) {
            byte[] bucket = EMPTY;
            if (!shares.get(b).isEmpty()) {
                for (byte[] share : shares.get(b).values()) {
                    sha.update(share);
                }
                bucket = sha.digest();
            }
            System.arraycopy(bucket, 0, top, (2 + b) * SIZE, SIZE);
        }
        stale.clear();
        return CanonicalJson.hex(sha.digest(top));
    }

    /** @return the bucket of a node name's share (see the class comment) */
    int bucket(String name) {
        byte[] hash = bucketing.digest(name.getBytes(StandardCharsets.UTF_8));
        return ((hash[0] & 0xff) << 8 | (hash[1] & 0xff)) >>> 6;
    }

    private void share(String name, List<String> modules) {
        List<Node> named = nodes.getOrDefault(name, List.of());
        int bucket = bucket(name);
        stale.set(bucket);
        if (named.isEmpty() && modules.isEmpty()) {
            shares.get(bucket).remove(name);
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
        shares.get(bucket).put(name, sha.digest());
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
