package dev.taikai.rules;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A slow, obviously-correct legal move generator written only for tests. It shares no code with the
 * rules core: it reads SFEN text (Fairy-Stockfish notation) into a 5×5 array of face strings, walks
 * each piece's directions square by square, plays every candidate on a copy and keeps those that do
 * not leave the mover's king attacked. Moves come out as USI text.
 */
final class ReferenceRules {
    private static final int[][] KING = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}};
    private static final int[][] GOLD = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, 0}};
    private static final int[][] SILVER = {{-1, -1}, {-1, 0}, {-1, 1}, {1, -1}, {1, 1}};
    private static final int[][] PAWN = {{-1, 0}};
    private static final int[][] KNIGHT = {{-2, -1}, {-2, 1}};
    private static final int[][] ORTHOGONAL = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    private static final int[][] DIAGONAL = {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}};

    private final boolean kyoto;
    /** Face per square, e.g. "+P"; upper case for sente, lower case for gote; null when empty. */
    private final String[][] board;
    /** Hand counts by upper-case letter, [0] sente, [1] gote. */
    private final List<Map<Character, Integer>> hands;

    private final boolean senteToMove;

    private ReferenceRules(boolean kyoto, String[][] board, List<Map<Character, Integer>> hands, boolean senteToMove) {
        this.kyoto = kyoto;
        this.board = board;
        this.hands = hands;
        this.senteToMove = senteToMove;
    }

    static ReferenceRules fromSfen(String variant, String sfen) {
        String[] fields = sfen.split(" ");
        String[][] board = new String[5][5];
        String[] ranks = fields[0].split("/");
        for (int r = 0; r < 5; r++) {
            int c = 0;
            for (int i = 0; i < ranks[r].length(); i++) {
                char ch = ranks[r].charAt(i);
                if (Character.isDigit(ch)) {
                    c += ch - '0';
                } else if (ch == '+') {
                    board[r][c++] = "+" + ranks[r].charAt(++i);
                } else {
                    board[r][c++] = String.valueOf(ch);
                }
            }
        }
        List<Map<Character, Integer>> hands = List.of(new HashMap<>(), new HashMap<>());
        if (!fields[2].equals("-")) {
            int count = 0;
            for (char ch : fields[2].toCharArray()) {
                if (Character.isDigit(ch)) {
                    count = count * 10 + (ch - '0');
                } else {
                    hands.get(Character.isUpperCase(ch) ? 0 : 1)
                            .merge(Character.toUpperCase(ch), Math.max(count, 1), Integer::sum);
                    count = 0;
                }
            }
        }
        return new ReferenceRules(variant.equals("kyotoshogi"), board, hands, fields[1].equals("b"));
    }

    /** The legal moves as USI text in Fairy-Stockfish notation. */
    Set<String> legalMoves() {
        Set<String> legal = new TreeSet<>();
        for (String move : candidateMoves()) {
            ReferenceRules after = play(move);
            if (!after.attacked(after.kingSquare(senteToMove), !senteToMove) && !isIllegalPawnDropMate(move, after)) {
                legal.add(move);
            }
        }
        return legal;
    }

    /** Perft by brute force: play every legal move down to the leaves. */
    long perft(int depth) {
        if (depth == 0) {
            return 1;
        }
        long nodes = 0;
        for (String move : legalMoves()) {
            nodes += depth == 1 ? 1 : play(move).perft(depth - 1);
        }
        return nodes;
    }

    private boolean isIllegalPawnDropMate(String move, ReferenceRules after) {
        return !kyoto
                && move.startsWith("P*")
                && after.attacked(after.kingSquare(after.senteToMove), !after.senteToMove)
                && after.legalMoves().isEmpty();
    }

    private List<String> candidateMoves() {
        List<String> moves = new ArrayList<>();
        int last = senteToMove ? 0 : 4;
        for (int r = 0; r < 5; r++) {
            for (int c = 0; c < 5; c++) {
                String piece = board[r][c];
                if (piece == null || isSente(piece) != senteToMove) {
                    continue;
                }
                String face = piece.toUpperCase();
                for (int[] to : destinations(r, c)) {
                    String plain = name(r, c) + name(to[0], to[1]);
                    if (kyoto) {
                        moves.add(face.equals("K") ? plain : plain + (face.startsWith("+") ? "-" : "+"));
                        continue;
                    }
                    boolean promotable = face.equals("P") || face.equals("S") || face.equals("B") || face.equals("R");
                    if (promotable && (r == last || to[0] == last)) {
                        moves.add(plain + "+");
                    }
                    if (!(face.equals("P") && to[0] == last)) {
                        moves.add(plain);
                    }
                }
            }
        }
        for (Map.Entry<Character, Integer> held : hands.get(senteToMove ? 0 : 1).entrySet()) {
            if (held.getValue() == 0) {
                continue;
            }
            char letter = held.getKey();
            for (int r = 0; r < 5; r++) {
                for (int c = 0; c < 5; c++) {
                    if (board[r][c] != null) {
                        continue;
                    }
                    if (kyoto) {
                        moves.add(letter + "*" + name(r, c));
                        moves.add("+" + letter + "*" + name(r, c));
                    } else if (letter != 'P' || (r != last && !hasOwnPawnOnColumn(c))) {
                        moves.add(letter + "*" + name(r, c));
                    }
                }
            }
        }
        return moves;
    }

    private boolean hasOwnPawnOnColumn(int c) {
        for (int r = 0; r < 5; r++) {
            if ((senteToMove ? "P" : "p").equals(board[r][c])) {
                return true;
            }
        }
        return false;
    }

    /** Squares the piece on (r, c) moves to or attacks, not counting its own side's pieces. */
    private List<int[]> destinations(int r, int c) {
        String piece = board[r][c];
        boolean sente = isSente(piece);
        String face = piece.toUpperCase();
        List<int[]> result = new ArrayList<>();
        String steps = kyoto ? kyotoMovement(face) : minishogiMovement(face);
        switch (steps) {
            case "king" -> step(r, c, KING, sente, result);
            case "gold" -> step(r, c, GOLD, sente, result);
            case "silver" -> step(r, c, SILVER, sente, result);
            case "pawn" -> step(r, c, PAWN, sente, result);
            case "knight" -> step(r, c, KNIGHT, sente, result);
            case "lance" -> slide(r, c, PAWN, sente, result);
            case "rook" -> slide(r, c, ORTHOGONAL, sente, result);
            case "bishop" -> slide(r, c, DIAGONAL, sente, result);
            case "dragon" -> {
                slide(r, c, ORTHOGONAL, sente, result);
                step(r, c, DIAGONAL, sente, result);
            }
            case "horse" -> {
                slide(r, c, DIAGONAL, sente, result);
                step(r, c, ORTHOGONAL, sente, result);
            }
            default -> throw new IllegalStateException(face);
        }
        return result;
    }

    private static String minishogiMovement(String face) {
        return switch (face) {
            case "K" -> "king";
            case "G", "+S", "+P" -> "gold";
            case "S" -> "silver";
            case "P" -> "pawn";
            case "R" -> "rook";
            case "B" -> "bishop";
            case "+R" -> "dragon";
            case "+B" -> "horse";
            default -> throw new IllegalStateException(face);
        };
    }

    private static String kyotoMovement(String face) {
        return switch (face) {
            case "K" -> "king";
            case "+L", "+N" -> "gold";
            case "L" -> "lance";
            case "S" -> "silver";
            case "+S" -> "bishop";
            case "N" -> "knight";
            case "P" -> "pawn";
            case "+P" -> "rook";
            default -> throw new IllegalStateException(face);
        };
    }

    private void step(int r, int c, int[][] directions, boolean sente, List<int[]> out) {
        for (int[] d : directions) {
            int tr = r + (sente ? d[0] : -d[0]);
            int tc = c + d[1];
            if (inside(tr, tc) && (board[tr][tc] == null || isSente(board[tr][tc]) != sente)) {
                out.add(new int[] {tr, tc});
            }
        }
    }

    private void slide(int r, int c, int[][] directions, boolean sente, List<int[]> out) {
        for (int[] d : directions) {
            int tr = r + (sente ? d[0] : -d[0]);
            int tc = c + d[1];
            while (inside(tr, tc)) {
                if (board[tr][tc] != null) {
                    if (isSente(board[tr][tc]) != sente) {
                        out.add(new int[] {tr, tc});
                    }
                    break;
                }
                out.add(new int[] {tr, tc});
                tr += sente ? d[0] : -d[0];
                tc += d[1];
            }
        }
    }

    boolean attacked(int[] square, boolean bySente) {
        for (int r = 0; r < 5; r++) {
            for (int c = 0; c < 5; c++) {
                if (board[r][c] != null && isSente(board[r][c]) == bySente) {
                    for (int[] to : destinations(r, c)) {
                        if (to[0] == square[0] && to[1] == square[1]) {
                            return true;
                        }
                    }
                }
            }
        }
        return false;
    }

    int[] kingSquare(boolean sente) {
        for (int r = 0; r < 5; r++) {
            for (int c = 0; c < 5; c++) {
                if ((sente ? "K" : "k").equals(board[r][c])) {
                    return new int[] {r, c};
                }
            }
        }
        throw new IllegalStateException("no king");
    }

    ReferenceRules play(String move) {
        String[][] next = new String[5][];
        for (int r = 0; r < 5; r++) {
            next[r] = board[r].clone();
        }
        List<Map<Character, Integer>> nextHands = List.of(new HashMap<>(hands.get(0)), new HashMap<>(hands.get(1)));
        Map<Character, Integer> hand = nextHands.get(senteToMove ? 0 : 1);
        int star = move.indexOf('*');
        if (star > 0) {
            String face = move.substring(0, star);
            int[] to = square(move.substring(star + 1));
            hand.merge(face.charAt(face.length() - 1), -1, Integer::sum);
            next[to[0]][to[1]] = senteToMove ? face : face.toLowerCase();
        } else {
            int[] from = square(move.substring(0, 2));
            int[] to = square(move.substring(2, 4));
            String piece = next[from[0]][from[1]];
            String captured = next[to[0]][to[1]];
            if (captured != null) {
                hand.merge(Character.toUpperCase(captured.charAt(captured.length() - 1)), 1, Integer::sum);
            }
            boolean turns = move.endsWith("+") || move.endsWith("-");
            if (turns) {
                piece = piece.startsWith("+") ? piece.substring(1) : "+" + piece;
            }
            next[from[0]][from[1]] = null;
            next[to[0]][to[1]] = piece;
        }
        ReferenceRules after = new ReferenceRules(kyoto, next, nextHands, !senteToMove);
        return after;
    }

    private static boolean isSente(String piece) {
        return Character.isUpperCase(piece.charAt(piece.length() - 1));
    }

    private static boolean inside(int r, int c) {
        return r >= 0 && r < 5 && c >= 0 && c < 5;
    }

    private static String name(int r, int c) {
        return "" + (char) ('0' + 5 - c) + (char) ('a' + r);
    }

    private static int[] square(String name) {
        return new int[] {name.charAt(1) - 'a', 5 - (name.charAt(0) - '0')};
    }
}
