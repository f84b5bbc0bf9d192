package dev.taikai.tournament;

import dev.taikai.enginehost.catalog.FileProblem;
import dev.taikai.referee.game.Opening;
import dev.taikai.rules.Game;
import dev.taikai.rules.InvalidSfenException;
import dev.taikai.rules.MoveException;
import dev.taikai.rules.Position;
import dev.taikai.rules.Sfen;
import dev.taikai.rules.Variant;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An opening suite file: one opening per line, {@code SFEN}, {@code SFEN moves M1 M2 ...}, {@code
 * startpos} or {@code startpos moves M1 ...}; Kyoto in either notation; {@code #} starts a comment,
 * and blank lines are skipped. Every opening is checked against the rules and must leave a game to play.
 */
public final class OpeningSuite {
    private OpeningSuite() {}

    /** The whole suite: {@link #read(Path, Variant, int, int)} from its first opening, every move of each. */
    public static List<Opening> read(Path file, Variant variant) {
        return read(file, variant, 1, -1);
    }

    /** The most plies of each opening a selection may keep ({@code plies}). */
    public static final int MAX_PLIES = 10_000;

    /**
     * The suite from its {@code start}-th opening (1: the first), each cut to at most {@code plies} of its
     * moves (negative: all of them), as cutechess-cli's {@code -openings start= plies=}. Every line must
     * read and its moves be legal; an opening played must leave a game to play after its cut, so a line
     * that ends a game can be cut short of the end, or skipped by {@code start}.
     *
     * @throws IllegalArgumentException naming the file and line of the first bad opening, or when {@code
     *     start} is past the suite's end
     */
    public static List<Opening> read(Path file, Variant variant, int start, int plies) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read opening suite " + file + ": " + FileProblem.of(file, e));
        }
        List<Opening> openings = new ArrayList<>();
        List<Integer> lineNumbers = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (i == 0 && line.startsWith("\uFEFF")) {
                line = line.substring(1); // a byte-order mark, as editors on Windows write
            }
            int comment = line.indexOf('#');
            line = (comment < 0 ? line : line.substring(0, comment)).trim();
            if (line.isEmpty()) {
                continue;
            }
            try {
                openings.add(legal(line, variant));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": " + e.getMessage());
            }
            lineNumbers.add(i + 1);
        }
        if (openings.isEmpty()) {
            throw new IllegalArgumentException(file + ": no openings in the file");
        }
        if (start < 1 || start > openings.size()) {
            throw new IllegalArgumentException("the opening suite has " + openings.size() + " openings: start is 1 to "
                    + openings.size() + ", not " + start);
        }
        List<Opening> selected = new ArrayList<>();
        for (int k = start - 1; k < openings.size(); k++) {
            Opening opening = cut(openings.get(k), plies);
            try {
                selected.add(playable(opening));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ":" + lineNumbers.get(k) + ": " + e.getMessage()
                        + (opening.moves().size() < openings.get(k).moves().size()
                                ? " (cut to " + plies + " plies)"
                                : ""));
            }
        }
        return selected;
    }

    /** {@code opening} with at most {@code plies} of its moves (negative: all of them). */
    private static Opening cut(Opening opening, int plies) {
        if (plies < 0 || opening.moves().size() <= plies) {
            return opening;
        }
        try {
            Position from = Sfen.parse(opening.position().variant(), opening.sfen());
            return Opening.of(from, opening.moves().subList(0, plies));
        } catch (InvalidSfenException | MoveException e) {
            throw new IllegalStateException("an opening read from the suite no longer reads: " + opening, e);
        }
    }

    /**
     * One opening line: {@code startpos}, {@code sfen <SFEN>} or a bare SFEN, then optionally {@code moves
     * M1 ...}.
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
    public static Opening parse(String line, Variant variant) {
        return playable(legal(line, variant));
    }

    /** The word {@code moves} after the position, after any white space (a tab too). */
    private static final java.util.regex.Pattern MOVES = java.util.regex.Pattern.compile("\\s+moves(?=\\s|$)");

    /** The opening of a line whose position reads and whose moves are legal from it. */
    private static Opening legal(String line, Variant variant) {
        java.util.regex.Matcher movesWord = MOVES.matcher(line);
        int movesAt = movesWord.find() ? movesWord.start() : -1;
        String where = (movesAt < 0 ? line : line.substring(0, movesAt)).trim();
        if (where.startsWith("sfen ") || where.startsWith("sfen\t")) {
            where = where.substring("sfen ".length()).trim();
        }
        List<String> moves = movesAt < 0
                ? List.of()
                : Arrays.stream(line.substring(movesWord.end()).trim().split("\\s+"))
                        .filter(m -> !m.isEmpty())
                        .toList();
        try {
            Position start = where.equals("startpos") ? Position.start(variant) : Sfen.parse(variant, where);
            return Opening.of(start, moves);
        } catch (InvalidSfenException e) {
            throw new IllegalArgumentException(e.getMessage());
        } catch (MoveException e) { // say the variant: a suite of the other variant fails on a move
            throw new IllegalArgumentException(e.getMessage() + " (as a " + variant.displayName() + " move)");
        }
    }

    /**
     * {@code opening}, when a game can be played from it. The game starts at the position after the book
     * moves, with no history (the referee's record and the engines' {@code position} begin there), so only
     * a position with no legal move (checkmate, stalemate) ends it; a repetition inside the book does not.
     */
    private static Opening playable(Opening opening) {
        Game game = new Game(opening.position());
        if (game.isOver()) {
            throw new IllegalArgumentException("the opening already ends the game ("
                    + game.outcome().orElseThrow().termination().name().toLowerCase(java.util.Locale.ROOT) + ")");
        }
        return opening;
    }
}
