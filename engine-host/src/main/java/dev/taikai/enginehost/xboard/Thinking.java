package dev.taikai.enginehost.xboard;

import dev.taikai.enginehost.session.Score;
import dev.taikai.enginehost.session.SearchInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * An XBoard engine's thinking output, {@code ply score time nodes pv} ({@code time} in centiseconds, the
 * score in centipawns from the engine's side, or a mate score ({@link #score}); newer engines put a tab before the pv and may add a
 * selective depth, a speed and table-base hits before it), as the telemetry a USI {@code info} line gives.
 * The pv is kept in USI when every move of it is a coordinate move; a pv in SAN is left out.
 */
final class Thinking {
    private Thinking() {}

    /** The telemetry of {@code line}, or null when it is no thinking output. */
    static SearchInfo parse(String line) {
        int tab = line.indexOf('\t');
        String numbers = tab < 0 ? line : line.substring(0, tab);
        String[] words = numbers.trim().split("\\s+");
        if (words.length < 4) {
            return null;
        }
        long[] fields = new long[4];
        for (int i = 0; i < 4; i++) {
            try {
                fields[i] = Long.parseLong(words[i].replaceAll("[&.+]$", ""));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        List<String> pvWords = new ArrayList<>();
        if (tab >= 0) {
            for (String word : line.substring(tab + 1).trim().split("\\s+")) {
                pvWords.add(word);
            }
        } else {
            for (int i = 4; i < words.length; i++) {
                pvWords.add(words[i]);
            }
        }
        List<String> pv = new ArrayList<>();
        for (String word : pvWords) {
            if (word.isEmpty() || word.matches("[0-9]+\\.+")) {
                continue; // move numbers of a SAN pv
            }
            var usi = XBoardText.usi(word);
            if (usi.isEmpty()) {
                pv.clear();
                break;
            }
            pv.add(usi.get());
        }
        if (fields[1] > Integer.MAX_VALUE || fields[1] < Integer.MIN_VALUE) {
            return null;
        }
        return new SearchInfo(
                (int) Math.min(fields[0], Integer.MAX_VALUE),
                -1,
                fields[2] * 10,
                fields[3],
                -1,
                -1,
                score(fields[1]),
                pv,
                null);
    }

    /** CECP's mate scores: 100000 + N is "mate in N moves", -100000 - N "mated in N moves". */
    private static final long MATE = 100_000;

    /**
     * The score of a thinking line: a mate score as USI has it, in plies (mate in N moves is 2N - 1 plies
     * away, mated in N moves 2N), so that both protocols' records read alike; else centipawns.
     */
    static Score score(long value) {
        long moves = Math.abs(value) - MATE;
        if (moves < 0 || moves >= MATE) {
            return Score.centipawns((int) value);
        }
        return Score.mateIn((int) (value > 0 ? Math.max(0, 2 * moves - 1) : -2 * moves));
    }
}
