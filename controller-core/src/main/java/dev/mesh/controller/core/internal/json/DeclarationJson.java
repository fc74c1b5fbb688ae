package dev.mesh.controller.core.internal.json;

import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Tool;
import dev.mesh.controller.core.internal.json.CanonicalOut.Name;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.security.DigestOutputStream;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import tools.jackson.core.JsonGenerator;

/**
 * The canonical JSON of a {@link Declaration} ({@link CanonicalJson#bytes} gives the same bytes),
 * written field by field in sorted key order on a {@link CanonicalOut}: as plain bytes while every
 * string is printable ASCII without {@code "} or {@code \\}, which is what composition gives, else
 * on Jackson's streaming generator.
 *
 * <p>Why: composition digests every declaration it makes, and databind reads each record
 * component through a reflective accessor call; writing the fields directly takes that cost out
 * of every plan (about a quarter of a full plan's CPU before). Equality with {@link CanonicalJson}
 * is a property test ({@code DeclarationJsonProperties}); a new component of a declaration's
 * records must be written here too, in its sorted place.
 *
 * <p>A digest may be given <em>fragments</em>: the plain bytes of parts that many declarations
 * share by identity — the accounts, directories, artifacts and tools of a module, the environments
 * resolved once for all nodes ({@code NodeComposer}). Such a part is copied instead of written
 * string by string. Why: writing a declaration is bound by visiting its strings (about ten
 * characters each, scattered in memory), and the shared parts hold most of them.
 *
 * <p>Thread-safe (stateless).
 */
public final class DeclarationJson {

    private static final Name ACCESSES = new Name("accesses");
    private static final Name ACCOUNTS = new Name("accounts");
    private static final Name ARTIFACT = new Name("artifact");
    private static final Name CONTAINERS = new Name("containers");
    private static final Name DIRECTORIES = new Name("directories");
    private static final Name ENV = new Name("env");
    private static final Name HOME = new Name("home");
    private static final Name LOCATION = new Name("location");
    private static final Name ID = new Name("id");
    private static final Name IMAGE = new Name("image");
    private static final Name MODE = new Name("mode");
    private static final Name MODULE = new Name("module");
    private static final Name MOUNTS = new Name("mounts");
    private static final Name NAME = new Name("name");
    private static final Name NETWORK = new Name("network");
    private static final Name NODE = new Name("node");
    private static final Name OVERLAP = new Name("overlap");
    private static final Name OWNER = new Name("owner");
    private static final Name PATH = new Name("path");
    private static final Name PREPARE = new Name("prepare");
    private static final Name PROCESSES = new Name("processes");
    private static final Name REPLACES = new Name("replaces");
    private static final Name REVISION = new Name("revision");
    private static final Name RUN = new Name("run");
    private static final Name SEATS = new Name("seats");
    private static final Name SECRETS = new Name("secrets");
    private static final Name SHA256 = new Name("sha256");
    private static final Name SHELL = new Name("shell");
    private static final Name SOURCE = new Name("source");
    private static final Name SYSTEM = new Name("system");
    private static final Name TARGET = new Name("target");
    private static final Name TOOLS = new Name("tools");
    private static final Name USER = new Name("user");
    private static final Name VERSION = new Name("version");

    private DeclarationJson() {
    }

    /** @return the canonical bytes of {@code declaration}, equal to {@link CanonicalJson#bytes} */
    static byte[] bytes(Declaration declaration) {
        byte[] plain = plainBytes(declaration);
        return plain != null ? plain : generatedBytes(declaration);
    }

    /** @return {@code sha256:} and the hex digest of its canonical bytes, equal to {@link CanonicalJson#digest} */
    public static String digest(Declaration declaration) {
        return digest(declaration, CanonicalOut.plain(CanonicalJson.sha256(), null), Map.of());
    }

    /**
     * {@link #digest(Declaration)} with a plain out the caller keeps from one declaration to the next.
     *
     * @param hashing a plain out hashing into a SHA-256; whatever it had written is discarded
     * @param fragments parts of the declaration, by identity, and their plain bytes ({@link #fragment})
     */
    public static String digest(Declaration declaration, CanonicalOut.Plain hashing, Map<Object, byte[]> fragments) {
        write(declaration, hashing.restart(), fragments);
        if (!hashing.finish()) {
            // Hashed as the generator flushes its buffer: no copy of the whole text is made.
            try (JsonGenerator json = CanonicalJson.generator(new DigestOutputStream(OutputStream.nullOutputStream(),
                    hashing.restart().sha()))) {
                write(declaration, CanonicalOut.generated(json), Map.of());
            }
        }
        return CanonicalJson.hex(hashing.sha().digest());
    }

    /** @return the bytes as written without Jackson, or null when a string needs more than plain ASCII */
    static byte[] plainBytes(Declaration declaration) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        CanonicalOut.Plain plain = CanonicalOut.plain(null, out);
        write(declaration, plain, Map.of());
        return plain.finish() ? out.toByteArray() : null;
    }

    /** @return the bytes as Jackson's generator writes them */
    static byte[] generatedBytes(Declaration declaration) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        try (JsonGenerator json = CanonicalJson.generator(out)) {
            write(declaration, CanonicalOut.generated(json), Map.of());
        }
        return out.toByteArray();
    }

    /**
     * The plain bytes of a part of declarations, as {@link #digest} writes it.
     *
     * @param part an account, a directory, an artifact, a tool, or an environment
     * @return its bytes, or null when a string in it is not plain
     */
    public static byte[] fragment(Object part) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        CanonicalOut.Plain plain = CanonicalOut.plain(null, out);
        switch (part) {
            case Declaration.Account account -> account(plain, account);
            case Declaration.Directory directory -> directory(plain, directory);
            case Declaration.Artifact artifact -> artifact(plain, artifact);
            case Declaration.Tool tool -> tool(plain, tool);
            case Map<?, ?> env -> {
                @SuppressWarnings("unchecked")
                Map<String, String> strings = (Map<String, String>) env;
                map(plain, strings);
            }
            default -> throw new IllegalArgumentException("not a part of declarations: " + part.getClass());
        }
        return plain.finish() ? out.toByteArray() : null;
    }

    private static void write(Declaration d, CanonicalOut json, Map<Object, byte[]> fragments) {
        json.writeStartObject();
        json.writeName(ACCESSES);
        json.writeStartArray();
        for (Declaration.Access access : d.accesses()) {
            json.writeStartObject();
            string(json, MODE, access.mode());
            string(json, MODULE, access.module());
            string(json, PATH, access.path());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeName(ACCOUNTS);
        json.writeStartArray();
        for (Declaration.Account account : d.accounts()) {
            if (!json.writeFragment(fragments.get(account))) {
                account(json, account);
            }
        }
        json.writeEndArray();
        json.writeName(CONTAINERS);
        json.writeStartArray();
        for (Declaration.Container container : d.containers()) {
            container(json, container);
        }
        json.writeEndArray();
        json.writeName(DIRECTORIES);
        json.writeStartArray();
        for (Declaration.Directory directory : d.directories()) {
            if (!json.writeFragment(fragments.get(directory))) {
                directory(json, directory);
            }
        }
        json.writeEndArray();
        string(json, NODE, d.node());
        json.writeName(PROCESSES);
        json.writeStartArray();
        for (Declaration.Process process : d.processes()) {
            process(json, process, fragments);
        }
        json.writeEndArray();
        string(json, REVISION, d.revision());
        strings(json, SEATS, d.seats());
        json.writeName(SECRETS);
        json.writeStartArray();
        for (Declaration.Secret secret : d.secrets()) {
            json.writeStartObject();
            string(json, MODE, secret.mode());
            string(json, MODULE, secret.module());
            string(json, NAME, secret.name());
            string(json, OWNER, secret.owner());
            string(json, PATH, secret.path());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeName(TOOLS);
        json.writeStartArray();
        for (Declaration.Tool tool : d.tools()) {
            if (!json.writeFragment(fragments.get(tool))) {
                tool(json, tool);
            }
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    private static void account(CanonicalOut json, Declaration.Account account) {
        json.writeStartObject();
        string(json, HOME, account.home());
        string(json, NAME, account.name());
        string(json, SHELL, account.shell());
        json.writeEndObject();
    }

    private static void directory(CanonicalOut json, Declaration.Directory directory) {
        json.writeStartObject();
        string(json, ID, directory.id());
        string(json, MODE, directory.mode());
        string(json, MODULE, directory.module());
        string(json, OWNER, directory.owner());
        string(json, PATH, directory.path());
        json.writeEndObject();
    }

    private static void tool(CanonicalOut json, Declaration.Tool tool) {
        json.writeStartObject();
        string(json, MODULE, tool.module());
        string(json, NAME, tool.name());
        json.writeEndObject();
    }

    /** The parts after the first format are left out while they have no value (see {@link Declaration.Artifact}). */
    private static void artifact(CanonicalOut json, Declaration.Artifact artifact) {
        json.writeStartObject();
        optional(json, LOCATION, artifact.location());
        string(json, MODULE, artifact.module());
        string(json, NAME, artifact.name());
        optional(json, SHA256, artifact.sha256());
        string(json, SYSTEM, artifact.system());
        optional(json, VERSION, artifact.version());
        json.writeEndObject();
    }

    private static void process(CanonicalOut json, Declaration.Process process,
            Map<Object, byte[]> fragments) {
        if (process == null) {
            json.writeNull();
            return;
        }
        json.writeStartObject();
        json.writeName(ARTIFACT);
        Declaration.Artifact artifact = process.artifact();
        if (artifact == null) {
            json.writeNull();
        } else if (!json.writeFragment(fragments.get(artifact))) {
            artifact(json, artifact);
        }
        json.writeName(ENV);
        if (process.env() == null || !json.writeFragment(fragments.get(process.env()))) {
            map(json, process.env());
        }
        string(json, MODULE, process.module());
        string(json, NAME, process.name());
        if (process.overlap()) {
            json.writeName(OVERLAP);
            json.writeTrue();
        }
        json.writeName(PREPARE);
        Declaration.Preparation prepare = process.prepare();
        if (prepare == null) {
            json.writeNull();
        } else {
            json.writeStartObject();
            json.writeName(ENV);
            if (prepare.env() == null || !json.writeFragment(fragments.get(prepare.env()))) {
                map(json, prepare.env());
            }
            strings(json, RUN, prepare.run());
            string(json, USER, prepare.user());
            json.writeEndObject();
        }
        strings(json, REPLACES, process.replaces());
        strings(json, RUN, process.run());
        string(json, USER, process.user());
        json.writeEndObject();
    }

    private static void container(CanonicalOut json, Declaration.Container container) {
        if (container == null) {
            json.writeNull();
            return;
        }
        json.writeStartObject();
        json.writeName(ENV);
        map(json, container.env());
        string(json, IMAGE, container.image());
        string(json, MODULE, container.module());
        json.writeName(MOUNTS);
        if (container.mounts() == null) {
            json.writeNull();
        } else {
            json.writeStartArray();
            for (Declaration.Mount mount : container.mounts()) {
                if (mount == null) {
                    json.writeNull();
                    continue;
                }
                json.writeStartObject();
                string(json, MODE, mount.mode());
                string(json, SOURCE, mount.source());
                string(json, TARGET, mount.target());
                json.writeEndObject();
            }
            json.writeEndArray();
        }
        string(json, NAME, container.name());
        string(json, NETWORK, container.network());
        strings(json, RUN, container.run());
        string(json, USER, container.user());
        json.writeEndObject();
    }

    private static void string(CanonicalOut json, Name name, String value) {
        json.writeName(name);
        json.writeString(value);
    }

    private static void optional(CanonicalOut json, Name name, String value) {
        if (value != null) {
            string(json, name, value);
        }
    }

    private static void strings(CanonicalOut json, Name name, List<String> values) {
        json.writeName(name);
        if (values == null) {
            json.writeNull();
            return;
        }
        json.writeStartArray();
        // Indexed: an iterator per list was a tenth of what composition allocated.
        for (int i = 0; i < values.size(); i++) {
            json.writeString(values.get(i));
        }
        json.writeEndArray();
    }

    /** Entries by key, as {@link CanonicalJson} orders them; composition gives sorted maps already. */
    private static void map(CanonicalOut json, Map<String, String> values) {
        if (values == null) {
            json.writeNull();
            return;
        }
        Map<String, String> sorted = values instanceof SortedMap<String, String> s && s.comparator() == null
                ? values : new TreeMap<>(values);
        json.writeStartObject();
        for (Map.Entry<String, String> entry : sorted.entrySet()) {
            json.writeName(entry.getKey());
            json.writeString(entry.getValue());
        }
        json.writeEndObject();
    }
}
