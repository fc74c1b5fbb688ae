package dev.mesh.controller.manifest.internal;

import java.util.List;

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
    record Obj(Members members, int line, int column) implements Json {
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

    /**
     * The members of an object, in document order, in an array of the exact size ({@link
     * JsonReader} gathers them on its own stack first: growable arrays of eight members and eight
     * hashes per object were a tenth of the parser's allocation). Manifest objects have a handful
     * of keys, so a linear search beats a hash map here; past {@value #INDEXED} keys an index
     * keeps look-ups constant for documents that are not manifests at all.
     */
    final class Members implements Iterable<Member> {

        static final int INDEXED = 16;

        private final Member[] items;
        private int cursor;
        private java.util.HashMap<String, Member> index;

        /** Takes over {@code items}: distinct keys, in document order. */
        Members(Member[] items) {
            this.items = items;
        }

        Member get(String key) {
            int size = items.length;
            if (size > INDEXED) {
                if (index == null) {
                    index = new java.util.HashMap<>(size * 2);
                    for (Member member : items) {
                        index.put(member.key(), member);
                    }
                }
                return index.get(key);
            }
            // Readers ask for keys roughly in document order: start after the last hit. Keys
            // cache their hash, so comparing hashes first costs a load, not a pass over the text.
            int hash = key.hashCode();
            for (int n = 0, i = cursor; n < size; n++, i = i + 1 == size ? 0 : i + 1) {
                String candidate = items[i].key();
                if (candidate.hashCode() == hash && candidate.equals(key)) {
                    cursor = i + 1 == size ? 0 : i + 1;
                    return items[i];
                }
            }
            return null;
        }

        boolean containsKey(String key) {
            return get(key) != null;
        }

        boolean isEmpty() {
            return items.length == 0;
        }

        int size() {
            return items.length;
        }

        /** @return the members, in document order */
        Iterable<Member> values() {
            return this;
        }

        @Override
        public java.util.Iterator<Member> iterator() {
            return new java.util.Iterator<>() {
                private int next;

                @Override
                public boolean hasNext() {
                    return next < items.length;
                }

                @Override
                public Member next() {
                    if (next >= items.length) {
                        throw new java.util.NoSuchElementException();
                    }
                    return items[next++];
                }
            };
        }
    }
}
