package dev.mesh.controller.core;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.security.DigestOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.SerializedString;

/**
 * The canonical JSON of a {@link Declaration} ({@link CanonicalJson#bytes} gives the same bytes),
 * written field by field in sorted key order: as plain bytes while every string is printable ASCII
 * without {@code "} or {@code \\}, which is what composition gives, else on Jackson's streaming
 * generator.
 *
 * <p>Why: composition digests every declaration it makes, and databind reads each record
 * component through a reflective accessor call; writing the fields directly takes that cost out
 * of every plan (about a quarter of a full plan's CPU before). Equality with {@link CanonicalJson}
 * is a jqwik property ({@code DeclarationJsonProperties}); a new component of a declaration's
 * records must be written here too, in its sorted place.
 *
 * <p>Thread-safe (stateless).
 */
final class DeclarationJson {

    private static final Name ACCESSES = new Name("accesses");
    private static final Name ACCOUNTS = new Name("accounts");
    private static final Name ARTIFACT = new Name("artifact");
    private static final Name CONTAINERS = new Name("containers");
    private static final Name DIRECTORIES = new Name("directories");
    private static final Name ENV = new Name("env");
    private static final Name HOME = new Name("home");
    private static final Name ID = new Name("id");
    private static final Name IMAGE = new Name("image");
    private static final Name MODE = new Name("mode");
    private static final Name MODULE = new Name("module");
    private static final Name MOUNTS = new Name("mounts");
    private static final Name NAME = new Name("name");
    private static final Name NETWORK = new Name("network");
    private static final Name NODE = new Name("node");
    private static final Name OWNER = new Name("owner");
    private static final Name PATH = new Name("path");
    private static final Name PREPARE = new Name("prepare");
    private static final Name PROCESSES = new Name("processes");
    private static final Name REPLACES = new Name("replaces");
    private static final Name REVISION = new Name("revision");
    private static final Name RUN = new Name("run");
    private static final Name SEATS = new Name("seats");
    private static final Name SECRETS = new Name("secrets");
    private static final Name SHELL = new Name("shell");
    private static final Name SOURCE = new Name("source");
    private static final Name SYSTEM = new Name("system");
    private static final Name TARGET = new Name("target");
    private static final Name TOOLS = new Name("tools");
    private static final Name USER = new Name("user");

    private DeclarationJson() {
    }

    /** @return the canonical bytes of {@code declaration}, equal to {@link CanonicalJson#bytes} */
    static byte[] bytes(Declaration declaration) {
        byte[] plain = plainBytes(declaration);
        return plain != null ? plain : generatedBytes(declaration);
    }

    /** @return {@code sha256:} and the hex digest of its canonical bytes, equal to {@link CanonicalJson#digest} */
    static String digest(Declaration declaration) {
        return digest(declaration, MeshDigest.sha256());
    }

    /**
     * {@link #digest(Declaration)} with a SHA-256 the caller keeps from one declaration to the next.
     *
     * @param sha a SHA-256; whatever it had hashed is discarded
     */
    static String digest(Declaration declaration, MessageDigest sha) {
        sha.reset();
        Plain plain = new Plain(sha, null);
        write(declaration, plain);
        if (!plain.finish()) {
            sha.reset();
            // Hashed as the generator flushes its buffer: no copy of the whole text is made.
            try (JsonGenerator json = CanonicalJson.generator(new DigestOutputStream(OutputStream.nullOutputStream(),
                    sha))) {
                write(declaration, new Generated(json));
            }
        }
        return MeshDigest.hex(sha.digest());
    }

    /** @return the bytes as written without Jackson, or null when a string needs more than plain ASCII */
    static byte[] plainBytes(Declaration declaration) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        Plain plain = new Plain(null, out);
        write(declaration, plain);
        return plain.finish() ? out.toByteArray() : null;
    }

    /** @return the bytes as Jackson's generator writes them */
    static byte[] generatedBytes(Declaration declaration) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        try (JsonGenerator json = CanonicalJson.generator(out)) {
            write(declaration, new Generated(json));
        }
        return out.toByteArray();
    }

    private static void write(Declaration d, Out json) {
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
            json.writeStartObject();
            string(json, HOME, account.home());
            string(json, NAME, account.name());
            string(json, SHELL, account.shell());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeName(CONTAINERS);
        json.writeStartArray();
        d.containers().forEach(container -> container(json, container));
        json.writeEndArray();
        json.writeName(DIRECTORIES);
        json.writeStartArray();
        for (Declaration.Directory directory : d.directories()) {
            json.writeStartObject();
            string(json, ID, directory.id());
            string(json, MODE, directory.mode());
            string(json, MODULE, directory.module());
            string(json, OWNER, directory.owner());
            string(json, PATH, directory.path());
            json.writeEndObject();
        }
        json.writeEndArray();
        string(json, NODE, d.node());
        json.writeName(PROCESSES);
        json.writeStartArray();
        d.processes().forEach(process -> process(json, process));
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
            json.writeStartObject();
            string(json, MODULE, tool.module());
            string(json, NAME, tool.name());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    private static void process(Out json, Declaration.Process process) {
        if (process == null) {
            json.writeNull();
            return;
        }
        json.writeStartObject();
        json.writeName(ARTIFACT);
        Declaration.Artifact artifact = process.artifact();
        if (artifact == null) {
            json.writeNull();
        } else {
            json.writeStartObject();
            string(json, MODULE, artifact.module());
            string(json, NAME, artifact.name());
            string(json, SYSTEM, artifact.system());
            json.writeEndObject();
        }
        map(json, ENV, process.env());
        string(json, MODULE, process.module());
        string(json, NAME, process.name());
        json.writeName(PREPARE);
        Declaration.Preparation prepare = process.prepare();
        if (prepare == null) {
            json.writeNull();
        } else {
            json.writeStartObject();
            map(json, ENV, prepare.env());
            strings(json, RUN, prepare.run());
            string(json, USER, prepare.user());
            json.writeEndObject();
        }
        strings(json, REPLACES, process.replaces());
        strings(json, RUN, process.run());
        string(json, USER, process.user());
        json.writeEndObject();
    }

    private static void container(Out json, Declaration.Container container) {
        if (container == null) {
            json.writeNull();
            return;
        }
        json.writeStartObject();
        map(json, ENV, container.env());
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

    private static void string(Out json, Name name, String value) {
        json.writeName(name);
        json.writeString(value);
    }

    private static void strings(Out json, Name name, List<String> values) {
        json.writeName(name);
        if (values == null) {
            json.writeNull();
            return;
        }
        json.writeStartArray();
        for (String value : values) {
            json.writeString(value);
        }
        json.writeEndArray();
    }

    /** Entries by key, as {@link CanonicalJson} orders them; composition gives sorted maps already. */
    private static void map(Out json, Name name, Map<String, String> values) {
        json.writeName(name);
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

    /** A key, as Jackson writes it and as plain bytes ({@code "key":}). */
    private static final class Name {
        private final SerializableString serialized;
        private final byte[] plain;

        private Name(String name) {
            serialized = new SerializedString(name);
            plain = ("\"" + name + "\":").getBytes(StandardCharsets.US_ASCII);
        }
    }

    /** Where a declaration is written, in the calls of Jackson's generator. */
    private abstract static class Out {
        abstract void writeStartObject();

        abstract void writeEndObject();

        abstract void writeStartArray();

        abstract void writeEndArray();

        abstract void writeName(Name name);

        abstract void writeName(String name);

        abstract void writeString(String value);

        abstract void writeNull();
    }

    /** Jackson's generator: any string, escaped as {@link CanonicalJson} escapes it. */
    private static final class Generated extends Out {
        private final JsonGenerator json;

        private Generated(JsonGenerator json) {
            this.json = json;
        }

        @Override
        void writeStartObject() {
            json.writeStartObject();
        }

        @Override
        void writeEndObject() {
            json.writeEndObject();
        }

        @Override
        void writeStartArray() {
            json.writeStartArray();
        }

        @Override
        void writeEndArray() {
            json.writeEndArray();
        }

        @Override
        void writeName(Name name) {
            json.writeName(name.serialized);
        }

        @Override
        void writeName(String name) {
            json.writeName(name);
        }

        @Override
        void writeString(String value) {
            json.writeString(value);
        }

        @Override
        void writeNull() {
            json.writeNull();
        }
    }

    /**
     * Plain bytes, for declarations whose strings are all printable ASCII without {@code "} or
     * {@code \\} — which Jackson too writes as they are, so no escaping rule is repeated here. At
     * the first other string it gives up ({@link #finish} says so) and the declaration is written
     * by {@link Generated}. Why: the generator's work per string was most of a declaration's digest.
     */
    private static final class Plain extends Out {
        private final MessageDigest sha;
        private final ByteArrayOutputStream out;
        // Small: it is flushed into the hash when full, and each declaration has its own.
        private byte[] buffer = new byte[512];
        private int size;
        /** The last byte written; a value or a key after anything but these needs a comma first. */
        private byte last = '[';
        private boolean failed;

        /** Hashes into {@code sha} if not null, else collects into {@code out}. */
        private Plain(MessageDigest sha, ByteArrayOutputStream out) {
            this.sha = sha;
            this.out = out;
        }

        @Override
        void writeStartObject() {
            open('{');
        }

        @Override
        void writeEndObject() {
            put('}');
        }

        @Override
        void writeStartArray() {
            open('[');
        }

        @Override
        void writeEndArray() {
            put(']');
        }

        @Override
        void writeName(Name name) {
            separate();
            ensure(name.plain.length);
            System.arraycopy(name.plain, 0, buffer, size, name.plain.length);
            size += name.plain.length;
            last = ':';
        }

        @Override
        void writeName(String name) {
            writeString(name);
            put(':');
        }

        @Override
        void writeString(String value) {
            if (value == null) {
                writeNull();
                return;
            }
            separate();
            int length = value.length();
            ensure(length + 2);
            byte[] bytes = buffer;
            int at = size;
            bytes[at++] = '"';
            for (int i = 0; i < length; i++) {
                char c = value.charAt(i);
                if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                    failed = true;
                    return;
                }
                bytes[at++] = (byte) c;
            }
            bytes[at++] = '"';
            size = at;
            last = '"';
        }

        @Override
        void writeNull() {
            separate();
            ensure(4);
            buffer[size++] = 'n';
            buffer[size++] = 'u';
            buffer[size++] = 'l';
            buffer[size++] = 'l';
            last = 'l';
        }

        /** @return whether every string was plain; the bytes are then all hashed or collected */
        boolean finish() {
            flush();
            return !failed;
        }

        private void open(char bracket) {
            separate();
            put(bracket);
        }

        private void separate() {
            if (last != '{' && last != '[' && last != ':') {
                put(',');
            }
        }

        private void put(char c) {
            ensure(1);
            buffer[size++] = (byte) c;
            last = (byte) c;
        }

        private void ensure(int more) {
            if (size + more > buffer.length) {
                flush();
                if (more > buffer.length) {
                    buffer = new byte[Math.max(more, 2 * buffer.length)];
                }
            }
        }

        private void flush() {
            if (sha != null) {
                sha.update(buffer, 0, size);
            } else {
                out.write(buffer, 0, size);
            }
            size = 0;
        }
    }
}
