package dev.mesh.controller.manifest.internal;

import java.util.List;
import java.util.Map;

/**
 * A JSON value that remembers where it starts: the tree the manifest checks walk. Jackson's own
 * trees drop locations, which every problem needs.
 */
sealed interface Json permits Json.Obj, Json.Arr, Json.Str, Json.Num, Json.Bool, Json.Null {

    /** @return 1-based line of the value's first character */
    int line();

    /** @return 1-based column of the value's first character */
    int column();

    /** @return the JSON type's name as a user reads it: object, array, string, number, boolean, null */
    String typeName();

    /** One member of an object, with the position of its key. */
    record Member(String key, int line, int column, Json value) {
    }

    /** An object; members in document order, the first of duplicate keys kept. */
    record Obj(Map<String, Member> members, int line, int column) implements Json {
        @Override
        public String typeName() {
            return "object";
        }
    }

    /** An array. */
    record Arr(List<Json> items, int line, int column) implements Json {
        @Override
        public String typeName() {
            return "array";
        }
    }

    /** A string; {@code column} is that of its opening quote. */
    record Str(String value, int line, int column) implements Json {
        @Override
        public String typeName() {
            return "string";
        }
    }

    /** A number, as written. */
    record Num(String text, int line, int column) implements Json {
        @Override
        public String typeName() {
            return "number";
        }
    }

    /** {@code true} or {@code false}. */
    record Bool(boolean value, int line, int column) implements Json {
        @Override
        public String typeName() {
            return "boolean";
        }
    }

    /** {@code null}. */
    record Null(int line, int column) implements Json {
        @Override
        public String typeName() {
            return "null";
        }
    }
}
