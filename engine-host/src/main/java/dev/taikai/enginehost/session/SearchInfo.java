package dev.taikai.enginehost.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The telemetry of one {@code info} line. Fields the line does not carry are −1 (numbers) or null.
 *
 * @param timeMillis search time the engine reports, in milliseconds
 * @param nodesPerSecond the engine's {@code nps}
 * @param hashfull permille of the hash table in use
 * @param pv the principal variation as USI move texts (empty when absent)
 * @param string the free text after {@code string}, or null
 */
public record SearchInfo(
        int depth,
        int seldepth,
        long timeMillis,
        long nodes,
        long nodesPerSecond,
        int hashfull,
        Score score,
        List<String> pv,
        String string) {
    private static final Set<String> KEYWORDS = Set.of(
            "depth",
            "seldepth",
            "time",
            "nodes",
            "pv",
            "multipv",
            "score",
            "currmove",
            "currmovenumber",
            "hashfull",
            "nps",
            "cpuload",
            "string",
            "refutation",
            "currline",
            "lowerbound",
            "upperbound");

    public SearchInfo {
        pv = List.copyOf(pv);
    }

    /** Parses an {@code info} line; unknown or malformed parts are skipped, never fatal. */
    /** {@code value} as an int, or {@code otherwise} when it is none (a depth of 99999999999 is no depth). */
    private static int small(long value, int otherwise) {
        return value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE ? (int) value : otherwise;
    }

    public static SearchInfo parse(String line) {
        String[] w = Words.of(line, Integer.MAX_VALUE).toArray(new String[0]);
        int depth = -1;
        int seldepth = -1;
        long time = -1;
        long nodes = -1;
        long nps = -1;
        int hashfull = -1;
        Score score = null;
        List<String> pv = new ArrayList<>();
        String string = null;
        for (int i = 1; i < w.length; i++) {
            switch (w[i]) {
                case "depth" -> depth = small(number(w, ++i, depth), depth);
                case "seldepth" -> seldepth = small(number(w, ++i, seldepth), seldepth);
                case "time" -> time = number(w, ++i, time);
                case "nodes" -> nodes = number(w, ++i, nodes);
                case "nps" -> nps = number(w, ++i, nps);
                case "hashfull" -> hashfull = small(number(w, ++i, hashfull), hashfull);
                case "score" -> {
                    if (i + 2 < w.length && (w[i + 1].equals("cp") || w[i + 1].equals("mate"))) {
                        score = score(w[i + 1], w[i + 2]);
                        i += 2;
                    }
                }
                case "lowerbound" -> score = score == null ? null : score.withBound(Score.Bound.LOWER);
                case "upperbound" -> score = score == null ? null : score.withBound(Score.Bound.UPPER);
                case "pv" -> {
                    pv.clear();
                    while (i + 1 < w.length && !KEYWORDS.contains(w[i + 1])) {
                        pv.add(w[++i]);
                    }
                }
                case "string" -> {
                    string = line.substring(line.indexOf("string") + "string".length())
                            .trim();
                    i = w.length;
                }
                default -> {} // multipv, currmove, cpuload and anything unknown: not recorded
            }
        }
        return new SearchInfo(depth, seldepth, time, nodes, nps, hashfull, score, pv, string);
    }

    private static long number(String[] words, int index, long fallback) {
        if (index >= words.length) {
            return fallback;
        }
        try {
            return Long.parseLong(words[index]);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private static Score score(String kind, String value) {
        if (kind.equals("mate") && (value.equals("+") || value.equals("-"))) {
            return Score.mateIn(0);
        }
        long parsed = number(new String[] {value}, 0, Long.MIN_VALUE);
        if (parsed == Long.MIN_VALUE || Math.abs(parsed) > Integer.MAX_VALUE) {
            return null;
        }
        return kind.equals("mate") ? Score.mateIn((int) parsed) : Score.centipawns((int) parsed);
    }

    /** True when the line carried a score, a depth or a pv: what a game record keeps per move. */
    public boolean hasSearchData() {
        return score != null || depth >= 0 || !pv.isEmpty();
    }
}
