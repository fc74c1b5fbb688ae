package dev.mesh.controller.manifest;

import java.util.Objects;

/**
 * A {@code ${kind:arg…}} reference inside a {@link Template}. Each variant keeps {@code column}: the
 * 1-based position of its {@code $} in the template text, so a problem can point inside the string.
 */
public sealed interface Reference extends Segment
        permits Reference.Dir, Reference.Seat, Reference.Secret, Reference.NodeFact, Reference.ModuleFact {

    /** @return the 1-based position of the reference's {@code $} in the template text */
    int column();

    /** @return the kind of reference */
    Kind kind();

    /** @return the reference as written, e.g. {@code ${seat:mesh-store:5432}} */
    String text();

    /** The reference kinds, in the order of docs/design.md section 4. */
    enum Kind {
        /** {@code ${dir:ID}}. */
        DIR("dir"),
        /** {@code ${seat:SEAT:PORT}}. */
        SEAT("seat"),
        /** {@code ${secret:NAME}}. */
        SECRET("secret"),
        /** {@code ${node:FACT}}. */
        NODE("node"),
        /** {@code ${module:FACT}}. */
        MODULE("module");

        private final String token;

        Kind(String token) {
            this.token = token;
        }

        /** @return the kind as written in templates, e.g. {@code dir} */
        public String token() {
            return token;
        }
    }

    /** The facts of the node being composed that {@code ${node:…}} can name. */
    enum NodeFactName {
        /** The node's name. */
        NAME("name"),
        /** The node's address. */
        ADDRESS("address"),
        /** The node's system, e.g. {@code debian-12}. */
        SYSTEM("system");

        private final String token;

        NodeFactName(String token) {
            this.token = token;
        }

        /** @return the fact as written in templates */
        public String token() {
            return token;
        }
    }

    /** The facts of the module itself that {@code ${module:…}} can name. */
    enum ModuleFactName {
        /** The module's name. */
        NAME("name"),
        /** The module's version. */
        VERSION("version"),
        /** The module's slug. */
        SLUG("slug");

        private final String token;

        ModuleFactName(String token) {
            this.token = token;
        }

        /** @return the fact as written in templates */
        public String token() {
            return token;
        }
    }

    /**
     * {@code ${dir:ID}}: the path of this module's directory resource {@code ID}.
     *
     * @param id the directory resource id
     * @param column 1-based position in the template text
     */
    record Dir(String id, int column) implements Reference {
        /** Checks the id. */
        public Dir {
            Objects.requireNonNull(id, "id");
        }

        @Override
        public Kind kind() {
            return Kind.DIR;
        }

        @Override
        public String text() {
            return "${dir:" + id + "}";
        }
    }

    /**
     * {@code ${seat:SEAT:PORT}}: {@code HOST:PORT} of the seat's holder.
     *
     * @param seat the seat name
     * @param port 1–65535
     * @param column 1-based position in the template text
     */
    record Seat(String seat, int port, int column) implements Reference {
        /** Checks seat and port. */
        public Seat {
            Objects.requireNonNull(seat, "seat");
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port must be 1-65535, got " + port);
            }
        }

        @Override
        public Kind kind() {
            return Kind.SEAT;
        }

        @Override
        public String text() {
            return "${seat:" + seat + ":" + port + "}";
        }
    }

    /**
     * {@code ${secret:NAME}}: the resolved path of this module's own secret {@code NAME}.
     *
     * @param name the secret name
     * @param column 1-based position in the template text
     */
    record Secret(String name, int column) implements Reference {
        /** Checks the name. */
        public Secret {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public Kind kind() {
            return Kind.SECRET;
        }

        @Override
        public String text() {
            return "${secret:" + name + "}";
        }
    }

    /**
     * {@code ${node:name|address|system}}: a fact of the node being composed.
     *
     * @param fact which fact
     * @param column 1-based position in the template text
     */
    record NodeFact(NodeFactName fact, int column) implements Reference {
        /** Checks the fact. */
        public NodeFact {
            Objects.requireNonNull(fact, "fact");
        }

        @Override
        public Kind kind() {
            return Kind.NODE;
        }

        @Override
        public String text() {
            return "${node:" + fact.token() + "}";
        }
    }

    /**
     * {@code ${module:name|version|slug}}: a fact of this module.
     *
     * @param fact which fact
     * @param column 1-based position in the template text
     */
    record ModuleFact(ModuleFactName fact, int column) implements Reference {
        /** Checks the fact. */
        public ModuleFact {
            Objects.requireNonNull(fact, "fact");
        }

        @Override
        public Kind kind() {
            return Kind.MODULE;
        }

        @Override
        public String text() {
            return "${module:" + fact.token() + "}";
        }
    }
}
