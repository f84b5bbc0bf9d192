package dev.taikai.rules;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A game: its start position, the moves played and, once it has ended, its {@link Outcome}. After every
 * move it judges the endings the rules decide (no legal move, repetition, perpetual check); the
 * referee records the others with {@link #end}. Mutable, owned by one thread.
 */
public final class Game {
    private final List<Position> positions = new ArrayList<>();
    private int[] moves = new int[64];
    /** Position indices by hash key, for repetition. */
    private final Map<Long, List<Integer>> indicesByKey = new HashMap<>();

    private int[] legalMoves;
    private Outcome outcome;

    public Game(Position start) {
        positions.add(start);
        indicesByKey.computeIfAbsent(start.key(), k -> new ArrayList<>()).add(0);
        judgeNoLegalMove();
    }

    public Variant variant() {
        return start().variant();
    }

    public Position start() {
        return positions.get(0);
    }

    /** The current position. */
    public Position position() {
        return positions.get(positions.size() - 1);
    }

    /** The position after {@code ply} moves (0 is the start). */
    public Position positionAt(int ply) {
        return positions.get(ply);
    }

    public int plies() {
        return positions.size() - 1;
    }

    public int[] moves() {
        return Arrays.copyOf(moves, plies());
    }

    /** The moves played, as USI text in {@code notation}. */
    public List<String> usiMoves(Notation notation) {
        List<String> texts = new ArrayList<>(plies());
        for (int i = 0; i < plies(); i++) {
            texts.add(Usi.format(moves[i], variant(), notation));
        }
        return texts;
    }

    public Optional<Outcome> outcome() {
        return Optional.ofNullable(outcome);
    }

    public boolean isOver() {
        return outcome != null;
    }

    /** Legal moves in the current position; empty once the game is over. */
    public int[] legalMoves() {
        return outcome == null ? legalMoves.clone() : new int[0];
    }

    /**
     * Plays a move given as USI text in either Kyoto notation.
     *
     * @throws IllegalStateException when the game is already over
     */
    public int play(String usi) throws MoveException {
        requireNotOver();
        int move = Usi.parse(position(), usi);
        play(move);
        return move;
    }

    /** Plays a move given as USI text in exactly {@code notation} (an engine's move). */
    public int play(String usi, Notation notation) throws MoveException {
        requireNotOver();
        int move = Usi.parse(position(), usi, notation);
        play(move);
        return move;
    }

    /**
     * Plays a legal move and judges the rules' endings.
     *
     * @throws IllegalArgumentException when the move is not legal in the current position
     * @throws IllegalStateException when the game is already over
     */
    public void play(int move) {
        requireNotOver();
        if (!contains(legalMoves, move)) {
            throw new IllegalArgumentException(
                    "move code " + move + " is not legal in " + position().toSfen());
        }
        if (plies() == moves.length) {
            moves = Arrays.copyOf(moves, moves.length * 2);
        }
        moves[plies()] = move;
        Position next = position().play(move);
        positions.add(next);
        judgeRepetition();
        if (outcome == null) {
            judgeNoLegalMove();
        }
    }

    /**
     * Ends the game for a reason outside the rules (resignation, time, illegal move, adjudication,
     * engine failure).
     *
     * @throws IllegalArgumentException for an ending the rules decide, which only {@link #play} records
     * @throws IllegalStateException when the game is already over
     */
    public void end(Termination termination, Result result, String detail) {
        requireNotOver();
        if (termination.byRules()) {
            throw new IllegalArgumentException(termination + " is decided by the rules, not by the referee");
        }
        outcome = new Outcome(result, termination, detail);
    }

    private void requireNotOver() {
        if (outcome != null) {
            throw new IllegalStateException("the game is over: " + outcome.termination());
        }
    }

    private void judgeNoLegalMove() {
        Position position = position();
        legalMoves = position.legalMoves();
        if (legalMoves.length > 0) {
            return;
        }
        Color loser = position.sideToMove();
        boolean check = position.inCheck();
        outcome = new Outcome(
                Result.lossFor(loser),
                check ? Termination.CHECKMATE : Termination.STALEMATE,
                loser.displayName() + (check ? " is checkmated" : " has no legal move"));
    }

    private void judgeRepetition() {
        int current = plies();
        Position position = positions.get(current);
        List<Integer> sameKey = indicesByKey.computeIfAbsent(position.key(), k -> new ArrayList<>());
        int first = -1;
        int occurrences = 1;
        for (int index : sameKey) {
            if (positions.get(index).samePosition(position)) {
                first = first < 0 ? index : first;
                occurrences++;
            }
        }
        sameKey.add(current);
        if (occurrences < variant().repetitionLimit()) {
            return;
        }
        String where = ordinal(occurrences) + " occurrence of the position (first after ply " + first + ")";
        if (variant() == Variant.KYOTOSHOGI) {
            outcome = new Outcome(Result.DRAW, Termination.REPETITION, where);
            return;
        }
        boolean[] checkedEveryMove = checkedWithEveryMoveSince(first);
        Color firstMover = start().sideToMove();
        if (checkedEveryMove[0] != checkedEveryMove[1]) {
            Color checker = checkedEveryMove[0] ? Color.SENTE : Color.GOTE;
            outcome = new Outcome(
                    Result.lossFor(checker),
                    Termination.PERPETUAL_CHECK,
                    where + "; " + checker.displayName() + " gave check with every move");
        } else {
            outcome = new Outcome(
                    Result.lossFor(firstMover),
                    Termination.REPETITION,
                    where + (checkedEveryMove[0] ? "; both players gave check with every move" : "")
                            + "; the player who moved first (" + firstMover.displayName() + ") loses");
        }
    }

    /** For each colour, whether every move it made after position {@code first} gave check. */
    private boolean[] checkedWithEveryMoveSince(int first) {
        boolean[] all = {true, true};
        for (int i = first + 1; i <= plies(); i++) {
            if (!positions.get(i).inCheck()) {
                all[positions.get(i - 1).sideIndex()] = false;
            }
        }
        return all;
    }

    private static String ordinal(int n) {
        return switch (n) {
            case 3 -> "third";
            case 4 -> "fourth";
            default -> n + "th";
        };
    }

    private static boolean contains(int[] moves, int move) {
        for (int m : moves) {
            if (m == move) {
                return true;
            }
        }
        return false;
    }
}
