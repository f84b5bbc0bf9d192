package dev.taikai.enginehost.xboard;

import dev.taikai.rules.Variant;
import java.util.Set;
import java.util.TreeSet;

/**
 * The piece letters an XBoard engine announces in its {@code setup (PIECETOCHAR) ...} reply to {@code
 * variant}: the white half of the table (up to its king) names, slot by slot, the letter of each piece it
 * uses; {@code .} is a piece not in the game; {@code +} a promoted piece, written {@code +} and the letter of
 * the piece eleven slots before it; {@code -X=Y} or {@code ^X=Y} a piece paired with {@code X} and written
 * {@code Y}. Taikai writes positions and moves with the letters of its SFEN (Kyoto: lishogi's, a letter per
 * face), so an engine whose letters are other ones cannot be spoken to and is refused at start.
 */
final class PieceTable {
    /** The letters Taikai writes for each variant, promoted pieces as {@code +X}. */
    static Set<String> expected(Variant variant) {
        return variant == Variant.MINISHOGI
                ? new TreeSet<>(Set.of("P", "S", "G", "B", "R", "K", "+P", "+S", "+B", "+R"))
                : new TreeSet<>(Set.of("P", "R", "S", "B", "G", "N", "T", "L", "K"));
    }

    private PieceTable() {}

    /** The letters of the table's white half, or null when it cannot be read. */
    static Set<String> letters(String table) {
        Set<String> letters = new TreeSet<>();
        java.util.List<Character> slots = new java.util.ArrayList<>();
        int i = 0;
        while (i < table.length()) {
            char c = table.charAt(i);
            if (c == '/') {
                return null; // a table that jumps to the higher slots: not a shogi table of these boards
            }
            char prefix = 0;
            if (c == '-' || c == '^' || c == '*') {
                prefix = c;
                if (++i >= table.length()) {
                    return null;
                }
                c = table.charAt(i);
            }
            i++;
            if (i < table.length() && (table.charAt(i) == '\'' || table.charAt(i) == '!')) {
                i++; // a suffix of XBoard's own piece images
            }
            char written = c;
            if (i + 1 < table.length() && table.charAt(i) == '=') {
                written = table.charAt(i + 1);
                i += 2;
            }
            if (Character.isLowerCase(c)) {
                break; // the black half begins
            }
            slots.add(prefix == '^' ? '+' : written);
            if (c == 'K' && prefix == 0) {
                break;
            }
        }
        for (int slot = 0; slot < slots.size(); slot++) {
            char c = slots.get(slot);
            if (c == '.') {
                continue;
            }
            if (c == '+') {
                if (slot < 11 || slots.get(slot - 11) == '.') {
                    return null;
                }
                letters.add("+" + slots.get(slot - 11));
            } else if (Character.isUpperCase(c)) {
                letters.add(String.valueOf(c));
            } else {
                return null;
            }
        }
        return letters;
    }
}
