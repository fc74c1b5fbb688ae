package dev.mesh.controller.manifest.internal;

/**
 * The shape of a name: a first character from one set, the rest from another, a length range.
 * Every pattern of the manifest has this shape; checking it with two lookup tables is several
 * times cheaper than a regular expression, on the parser's hottest path.
 */
final class Form {

    private final boolean[] first;
    private final boolean[] rest;
    private final int min;
    private final int max;

    private Form(String first, String rest, int min, int max) {
        this.first = table(first);
        this.rest = table(rest);
        this.min = min;
        this.max = max;
    }

    /**
     * @param first the characters allowed first, as ranges like {@code "a-z0-9_"}
     * @param rest the characters allowed after the first
     * @param min the least length
     * @param max the greatest length
     */
    static Form of(String first, String rest, int min, int max) {
        return new Form(first, rest, min, max);
    }

    boolean matches(String text) {
        int length = text.length();
        if (length < min || length > max) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            boolean[] allowed = i == 0 ? first : rest;
            if (c >= allowed.length || !allowed[c]) {
                return false;
            }
        }
        return true;
    }

    /** ASCII only: {@code a-z} is a range, any other character stands for itself. */
    private static boolean[] table(String spec) {
        boolean[] table = new boolean[128];
        for (int i = 0; i < spec.length(); i++) {
            char from = spec.charAt(i);
            if (i + 2 < spec.length() && spec.charAt(i + 1) == '-') {
                char to = spec.charAt(i + 2);
                for (char c = from; c <= to; c++) {
                    table[c] = true;
                }
                i += 2;
            } else {
                table[from] = true;
            }
        }
        return table;
    }
}
