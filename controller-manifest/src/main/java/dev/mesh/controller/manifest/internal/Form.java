package dev.mesh.controller.manifest.internal;

/**
 * The shape of a name: a first character from one set, the rest from another, a length range.
 * Every pattern of the manifest has this shape; checking it with a lookup table is several
 * times cheaper than a regular expression, on the parser's hottest path.
 */
final class Form {

    private static final byte FIRST = 1;
    private static final byte REST = 2;

    /**
     * For each ASCII character, whether it is allowed first ({@link #FIRST}) and after
     * ({@link #REST}). One table load per character and a test that is nearly always true: with
     * two 64-bit sets the "which half" branch went both ways within a name (letters and digits),
     * and a tenth of a parse was spent here.
     */
    private final byte[] table = new byte[128];
    private final int min;
    private final int max;

    private Form(String first, String rest, int min, int max) {
        mark(first, FIRST);
        mark(rest, REST);
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
        return matches(text, 0, text.length());
    }

    /** Whether {@code text[from, to)} has this form. */
    boolean matches(String text, int from, int to) {
        int length = to - from;
        if (length < min || length > max || !allowed(text.charAt(from), FIRST)) {
            return false;
        }
        for (int i = from + 1; i < to; i++) {
            if (!allowed(text.charAt(i), REST)) {
                return false;
            }
        }
        return true;
    }

    private boolean allowed(char c, byte where) {
        return c < 128 && (table[c] & where) != 0;
    }

    /** ASCII only: {@code a-z} is a range, any other character stands for itself. */
    private void mark(String spec, byte where) {
        for (int i = 0; i < spec.length(); i++) {
            char from = spec.charAt(i);
            char to = from;
            if (i + 2 < spec.length() && spec.charAt(i + 1) == '-') {
                to = spec.charAt(i + 2);
                i += 2;
            }
            for (char c = from; c <= to; c++) {
                table[c] |= where;
            }
        }
    }
}
