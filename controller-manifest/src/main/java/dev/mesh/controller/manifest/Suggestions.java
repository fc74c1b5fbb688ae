package dev.mesh.controller.manifest;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * "Did you mean" for near-misses: the closest candidate within a small edit distance (at most a
 * third of the name's length, between one and three edits; case is ignored). The manifest's
 * problems and the verbs' argument errors give their hints with it, so a misspelt name is told the
 * same way everywhere.
 *
 * <p>Stateless and thread-safe.
 */
public final class Suggestions {

    private Suggestions() {
    }

    /**
     * @param given the name as written
     * @param candidates the names it could have meant
     * @return {@code did you mean "X"?} for the closest candidate, when one is close enough
     */
    public static Optional<String> hint(String given, Collection<String> candidates) {
        return closest(given, candidates).map(best -> "did you mean \"" + best + "\"?");
    }

    /**
     * @param given the name as written
     * @param candidates the names it could have meant
     * @return the closest candidate, when one is close enough
     */
    public static Optional<String> closest(String given, Collection<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        int allowed = Math.max(1, Math.min(3, given.length() / 3));
        for (String candidate : candidates) {
            int distance = distance(given.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return bestDistance <= allowed ? Optional.ofNullable(best) : Optional.empty();
    }

    /** Optimal string alignment distance: Levenshtein plus adjacent transpositions. */
    private static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
