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
     * The members of an object, in document order. Manifest objects have a handful of keys, so a
     * linear search over an array beats a hash map here; past {@value #INDEXED} keys an index
     * keeps look-ups constant for documents that are not manifests at all.
     */
    final class Members implements Iterable<Member> {

        private static final int INDEXED = 16;

        private Member[] items = new Member[8];
        private int[] hashes = new int[8];
        private int size;
        private int cursor;
        private java.util.HashMap<String, Member> index;

        Member get(String key) {
            if (index != null) {
                return index.get(key);
            }
            // Readers ask for keys roughly in document order: start after the last hit.
            int hash = key.hashCode();
            for (int n = 0, i = cursor; n < size; n++, i = i + 1 == size ? 0 : i + 1) {
                if (hashes[i] == hash && items[i].key().equals(key)) {
                    cursor = i + 1 == size ? 0 : i + 1;
                    return items[i];
                }
            }
            return null;
        }

        boolean containsKey(String key) {
            return get(key) != null;
        }

        /** Adds {@code member} unless its key is taken. @return the member that holds the key, or null */
        Member putIfAbsent(Member member) {
            String key = member.key();
            int hash = key.hashCode();
            if (index != null) {
                Member first = index.get(key);
                if (first != null) {
                    return first;
                }
            } else {
                // A plain scan: the cursor of get() buys nothing when every key is new.
                for (int i = 0; i < size; i++) {
                    if (hashes[i] == hash && items[i].key().equals(key)) {
                        return items[i];
                    }
                }
            }
            if (size == items.length) {
                items = java.util.Arrays.copyOf(items, size * 2);
                hashes = java.util.Arrays.copyOf(hashes, size * 2);
            }
            hashes[size] = hash;
            items[size++] = member;
            if (index != null) {
                index.put(member.key(), member);
            } else if (size > INDEXED) {
                index = new java.util.HashMap<>(size * 4);
                for (int i = 0; i < size; i++) {
                    index.put(items[i].key(), items[i]);
                }
            }
            return null;
        }

        boolean isEmpty() {
            return size == 0;
        }

        int size() {
            return size;
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
                    return next < size;
                }

                @Override
                public Member next() {
                    if (next >= size) {
                        throw new java.util.NoSuchElementException();
                    }
                    return items[next++];
                }
            };
        }
    }
}
