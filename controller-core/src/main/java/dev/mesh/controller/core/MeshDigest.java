package dev.mesh.controller.core;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@link Planner#meshDigest} kept up to date as assignments change, for {@link IncrementalPlanner}.
 *
 * <p>The digest is the SHA-256 of the canonical JSON of {@code [nodes, versions, assignments,
 * layout]}, the assignments sorted by node, then module. Sorted that way, the assignments are each
 * node's share, one after the other; this keeps each node's share as canonical bytes, written again
 * only when that node's assignments change, and hashes the parts in order. Writing and sorting all
 * 75,000 assignments of the 10,000-node benchmark mesh takes about 40 ms; hashing the kept bytes
 * (3.5 MB) about 3 ms, of which the nodes and versions that come first (a fifth) are hashed once
 * per {@link #reset} and resumed from a copy of the hash's state. Canonical JSON has no whitespace,
 * so a list's bytes are {@code [}, its elements' bytes joined by {@code ,}, and {@code ]}: the
 * result is the same bytes, hence the same digest (checked against {@link Planner#meshDigest} by
 * the tests).
 *
 * <p>Not thread-safe: its planner serializes the calls.
 */
final class MeshDigest {

    private static final byte[] OPEN = {'['};
    private static final byte[] COMMA = {','};
    private static final byte[] CLOSE = {']'};

    /** The hash of what precedes the assignments: {@code [nodes,versions,[}. */
    private MessageDigest head = sha256();
    private byte[] layout = new byte[0];
    /**
     * Node name (as assignments name it) → {@code ,} and its assignments, sorted by module, as
     * elements of a JSON array (the first share is hashed without its comma).
     */
    private final Map<String, byte[]> assignments = new TreeMap<>();

    /** Forgets the assignments and keeps the nodes, module versions and layout of {@code mesh}. */
    void reset(Mesh mesh) {
        Map<String, String> moduleVersions = new TreeMap<>();
        mesh.modules().forEach(m -> moduleVersions.put(m.module(), m.version()));
        head = sha256();
        head.update(OPEN);
        head.update(CanonicalJson.bytes(mesh.nodes().stream().sorted(Comparator.comparing(Node::name)).toList()));
        head.update(COMMA);
        head.update(CanonicalJson.bytes(moduleVersions));
        head.update(COMMA);
        head.update(OPEN);
        layout = CanonicalJson.bytes(mesh.layout());
        assignments.clear();
    }

    /**
     * @param node a node name, as assignments name it
     * @param modules the modules assigned to it, sorted, each as often as it is assigned
     */
    void assigned(String node, List<String> modules) {
        if (modules.isEmpty()) {
            assignments.remove(node);
            return;
        }
        List<Assignment> share = new ArrayList<>(modules.size());
        modules.forEach(module -> share.add(new Assignment(module, node)));
        byte[] array = CanonicalJson.bytes(share);
        array[0] = ',';
        assignments.put(node, Arrays.copyOf(array, array.length - 1));
    }

    /** @return {@code sha256:} and the hex digest, as {@link Planner#meshDigest} gives it */
    String digest() {
        MessageDigest sha;
        try {
            sha = (MessageDigest) head.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the platform's SHA-256 can be copied", e);
        }
        boolean first = true;
        for (byte[] share : assignments.values()) {
            int skip = first ? 1 : 0;
            sha.update(share, skip, share.length - skip);
            first = false;
        }
        sha.update(CLOSE);
        sha.update(COMMA);
        sha.update(layout);
        sha.update(CLOSE);
        return "sha256:" + HexFormat.of().formatHex(sha.digest());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }
}
