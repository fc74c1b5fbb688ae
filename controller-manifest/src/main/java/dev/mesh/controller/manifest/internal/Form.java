package dev.mesh.controller.manifest.internal;

/**
 * The shape of a name: a first character from one set, the rest from another, a length range.
 * Every pattern of the manifest has this shape; checking it with two lookup tables is several
 * times cheaper than a regular expression, on the parser's hottest path.
 */
final class Form {

    /** Allowed ASCII characters as bit sets: bit {@code c} of {@code low} for c < 64, of {@code high} for the rest. */
    private final long firstLow;
    private final long firstHigh;
    private final long restLow;
    private final long restHigh;
    private final int min;
    private final int max;

    private Form(String first, String rest, int min, int max) {
        this.firstLow = bits(first, 0);
        this.firstHigh = bits(first, 64);
        this.restLow = bits(rest, 0);
        this.restHigh = bits(rest, 64);
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
        if (length < min || length > max || !allowed(text.charAt(from), firstLow, firstHigh)) {
            return false;
        }
        for (int i = from + 1; i < to; i++) {
            if (!allowed(text.charAt(i), restLow, restHigh)) {
                return false;
            }
        }
        return true;
    }

    private static boolean allowed(char c, long low, long high) {
        return c < 64 ? (low >>> c & 1L) != 0 : c < 128 && (high >>> (c - 64) & 1L) != 0;
    }

    /** ASCII only: {@code a-z} is a range, any other character stands for itself. */
    private static long bits(String spec, int offset) {
        long bits = 0;
        for (int i = 0; i < spec.length(); i++) {
            char from = spec.charAt(i);
            char to = from;
            if (i + 2 < spec.length() && spec.charAt(i + 1) == '-') {
                to = spec.charAt(i + 2);
                i += 2;
            }
            for (char c = from; c <= to; c++) {
                if (c >= offset && c < offset + 64) {
                    bits |= 1L << (c - offset);
                }
            }
        }
        return bits;
    }
}
