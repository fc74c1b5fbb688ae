package dev.mesh.controller.core;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.security.DigestOutputStream;
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
 * written field by field in sorted key order on a streaming generator.
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

    private static final SerializableString ACCESSES = name("accesses");
    private static final SerializableString ACCOUNTS = name("accounts");
    private static final SerializableString ARTIFACT = name("artifact");
    private static final SerializableString CONTAINERS = name("containers");
    private static final SerializableString DIRECTORIES = name("directories");
    private static final SerializableString ENV = name("env");
    private static final SerializableString HOME = name("home");
    private static final SerializableString ID = name("id");
    private static final SerializableString IMAGE = name("image");
    private static final SerializableString MODE = name("mode");
    private static final SerializableString MODULE = name("module");
    private static final SerializableString MOUNTS = name("mounts");
    private static final SerializableString NAME = name("name");
    private static final SerializableString NETWORK = name("network");
    private static final SerializableString NODE = name("node");
    private static final SerializableString OWNER = name("owner");
    private static final SerializableString PATH = name("path");
    private static final SerializableString PREPARE = name("prepare");
    private static final SerializableString PROCESSES = name("processes");
    private static final SerializableString REPLACES = name("replaces");
    private static final SerializableString REVISION = name("revision");
    private static final SerializableString RUN = name("run");
    private static final SerializableString SEATS = name("seats");
    private static final SerializableString SECRETS = name("secrets");
    private static final SerializableString SHELL = name("shell");
    private static final SerializableString SOURCE = name("source");
    private static final SerializableString SYSTEM = name("system");
    private static final SerializableString TARGET = name("target");
    private static final SerializableString TOOLS = name("tools");
    private static final SerializableString USER = name("user");

    private DeclarationJson() {
    }

    /** @return the canonical bytes of {@code declaration}, equal to {@link CanonicalJson#bytes} */
    static byte[] bytes(Declaration declaration) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        write(declaration, out);
        return out.toByteArray();
    }

    /** @return {@code sha256:} and the hex digest of its canonical bytes, equal to {@link CanonicalJson#digest} */
    static String digest(Declaration declaration) {
        MessageDigest sha = MeshDigest.sha256();
        // Hashed as the generator flushes its buffer: no copy of the whole text is made.
        write(declaration, new DigestOutputStream(OutputStream.nullOutputStream(), sha));
        return MeshDigest.hex(sha.digest());
    }

    private static void write(Declaration d, OutputStream out) {
        try (JsonGenerator json = CanonicalJson.generator(out)) {
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
    }

    private static void process(JsonGenerator json, Declaration.Process process) {
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

    private static void container(JsonGenerator json, Declaration.Container container) {
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

    private static void string(JsonGenerator json, SerializableString name, String value) {
        json.writeName(name);
        json.writeString(value);
    }

    private static void strings(JsonGenerator json, SerializableString name, List<String> values) {
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
    private static void map(JsonGenerator json, SerializableString name, Map<String, String> values) {
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

    private static SerializableString name(String name) {
        return new SerializedString(name);
    }
}
