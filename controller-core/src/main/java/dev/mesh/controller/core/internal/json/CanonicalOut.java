package dev.mesh.controller.core.internal.json;

import dev.mesh.controller.core.CanonicalJson;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.SerializedString;

/**
 * Where the writers of canonical JSON that put keys in sorted order themselves
 * ({@link DeclarationJson}, {@code MeshDigest}) write, in the calls of Jackson's generator: on the
 * generator itself ({@link #generated}), or as plain bytes ({@link #plain}) while every string is
 * printable ASCII without {@code "} or {@code \\}, which is what composition gives. Both give the
 * bytes {@link CanonicalJson#bytes} gives.
 *
 * <p>Why the plain form: the generator's work per string was most of a declaration's digest.
 *
 * <p>Not thread-safe; one value is written at a time.
 */
public abstract sealed class CanonicalOut {

    /** A key, as Jackson writes it and as plain bytes ({@code "key":}). */
    public static final class Name {
        private final SerializableString serialized;
        private final byte[] plain;

        public Name(String name) {
            serialized = new SerializedString(name);
            plain = ("\"" + name + "\":").getBytes(StandardCharsets.US_ASCII);
        }
    }

    /** @return an out writing on {@code json} */
    public static CanonicalOut generated(JsonGenerator json) {
        return new Generated(json);
    }

    /**
     * @param sha where the bytes are hashed, or null to collect them in {@code out}
     * @param out where the bytes are collected when {@code sha} is null
     * @return an out writing plain bytes, until the first string that is not plain ({@link #finish})
     */
    public static Plain plain(MessageDigest sha, ByteArrayOutputStream out) {
        return new Plain(sha, out);
    }

    public abstract void writeStartObject();

    public abstract void writeEndObject();

    public abstract void writeStartArray();

    public abstract void writeEndArray();

    public abstract void writeName(Name name);

    public abstract void writeName(String name);

    public abstract void writeString(String value);

    abstract void writeNull();

    abstract void writeTrue();

    /**
     * Writes a value's bytes as {@link #plain} wrote them before, if this out writes plain bytes.
     *
     * @param fragment the value's plain bytes, or null when not known
     * @return whether it was written; if not, the caller writes the value
     */
    abstract boolean writeFragment(byte[] fragment);

    /** Jackson's generator: any string, escaped as {@link CanonicalJson} escapes it. */
    private static final class Generated extends CanonicalOut {
        private final JsonGenerator json;

        private Generated(JsonGenerator json) {
            this.json = json;
        }

        @Override
        public void writeStartObject() {
            json.writeStartObject();
        }

        @Override
        public void writeEndObject() {
            json.writeEndObject();
        }

        @Override
        public void writeStartArray() {
            json.writeStartArray();
        }

        @Override
        public void writeEndArray() {
            json.writeEndArray();
        }

        @Override
        public void writeName(Name name) {
            json.writeName(name.serialized);
        }

        @Override
        public void writeName(String name) {
            json.writeName(name);
        }

        @Override
        public void writeString(String value) {
            json.writeString(value);
        }

        @Override
        void writeNull() {
            json.writeNull();
        }

        @Override
        void writeTrue() {
            json.writeBoolean(true);
        }

        @Override
        boolean writeFragment(byte[] fragment) {
            return false;
        }
    }

    /**
     * Plain bytes, for values whose strings are all printable ASCII without {@code "} or
     * {@code \\} — which Jackson too writes as they are, so no escaping rule is repeated here. At
     * the first other string it gives up ({@link #finish} says so) and the value must be written on
     * Jackson's generator.
     */
    public static final class Plain extends CanonicalOut {
        private final MessageDigest sha;
        private final ByteArrayOutputStream out;
        // Small: it is flushed into the hash or the collected bytes when full.
        private byte[] buffer = new byte[512];
        private int size;
        /** The last byte written; a value or a key after anything but these needs a comma first. */
        private byte last = '[';
        private boolean failed;

        private Plain(MessageDigest sha, ByteArrayOutputStream out) {
            this.sha = sha;
            this.out = out;
        }

        @Override
        public void writeStartObject() {
            open('{');
        }

        @Override
        public void writeEndObject() {
            put('}');
        }

        @Override
        public void writeStartArray() {
            open('[');
        }

        @Override
        public void writeEndArray() {
            put(']');
        }

        @Override
        public void writeName(Name name) {
            separate();
            raw(name.plain);
            last = ':';
        }

        @Override
        public void writeName(String name) {
            writeString(name);
            put(':');
        }

        @Override
        public void writeString(String value) {
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

        @Override
        void writeTrue() {
            separate();
            ensure(4);
            buffer[size++] = 't';
            buffer[size++] = 'r';
            buffer[size++] = 'u';
            buffer[size++] = 'e';
            last = 'e';
        }

        @Override
        boolean writeFragment(byte[] fragment) {
            if (fragment == null) {
                return false;
            }
            separate();
            raw(fragment);
            last = fragment[fragment.length - 1];
            return true;
        }

        /**
         * Starts writing another value: what was written is discarded, and so is what was hashed.
         * Why: composition digests thousands of declarations, each in the same buffer.
         *
         * @return this
         */
        public Plain restart() {
            size = 0;
            last = '[';
            failed = false;
            if (sha != null) {
                sha.reset();
            }
            return this;
        }

        /** @return the SHA-256 it hashes into, or null when it collects bytes */
        MessageDigest sha() {
            return sha;
        }

        /** @return whether every string was plain; the bytes are then all hashed or collected */
        public boolean finish() {
            flush();
            return !failed;
        }

        private void raw(byte[] bytes) {
            ensure(bytes.length);
            System.arraycopy(bytes, 0, buffer, size, bytes.length);
            size += bytes.length;
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
