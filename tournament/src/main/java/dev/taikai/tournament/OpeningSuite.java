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

    /** @throws IllegalArgumentException naming the file and line of the first bad opening */
    public static List<Opening> read(Path file, Variant variant) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read opening suite " + file + ": " + FileProblem.of(file, e));
        }
        List<Opening> openings = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int comment = line.indexOf('#');
            line = (comment < 0 ? line : line.substring(0, comment)).trim();
            if (line.isEmpty()) {
                continue;
            }
            try {
                openings.add(parse(line, variant));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": " + e.getMessage());
            }
        }
        if (openings.isEmpty()) {
            throw new IllegalArgumentException(file + ": no openings in the file");
        }
        return openings;
    }

    /** The most plies of each opening a selection may keep ({@code plies}). */
    public static final int MAX_PLIES = 10_000;

    /**
     * The suite from its {@code start}-th opening (1: the first), each cut to at most {@code plies} of its
     * moves (negative: all of them), as cutechess-cli's {@code -openings start= plies=}.
     *
     * @throws IllegalArgumentException when {@code start} is past the suite's end
     */
    public static List<Opening> select(List<Opening> openings, int start, int plies) {
        if (start < 1 || start > openings.size()) {
            throw new IllegalArgumentException("the opening suite has " + openings.size() + " openings: start is 1 to "
                    + openings.size() + ", not " + start);
        }
        List<Opening> selected = new ArrayList<>();
        for (Opening opening : openings.subList(start - 1, openings.size())) {
            if (plies < 0 || opening.moves().size() <= plies) {
                selected.add(opening);
                continue;
            }
            try {
                Position from = Sfen.parse(opening.position().variant(), opening.sfen());
                selected.add(Opening.of(from, opening.moves().subList(0, plies)));
            } catch (InvalidSfenException | MoveException e) {
                throw new IllegalStateException("an opening read from the suite no longer reads: " + opening, e);
            }
        }
        return selected;
    }

    /**
     * One opening line: {@code startpos}, {@code sfen <SFEN>} or a bare SFEN, then optionally {@code moves
     * M1 ...}.
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
    public static Opening parse(String line, Variant variant) {
        int movesAt = line.indexOf(" moves");
        String where = (movesAt < 0 ? line : line.substring(0, movesAt)).trim();
        if (where.startsWith("sfen ")) {
            where = where.substring("sfen ".length()).trim();
        }
        List<String> moves = movesAt < 0
                ? List.of()
                : Arrays.stream(line.substring(movesAt + 6).trim().split("\\s+"))
                        .filter(m -> !m.isEmpty())
                        .toList();
        try {
            Position start = where.equals("startpos") ? Position.start(variant) : Sfen.parse(variant, where);
            Opening opening = Opening.of(start, moves);
            Game check = new Game(start);
            for (String move : opening.moves()) {
                if (check.isOver()) {
                    break;
                }
                check.play(move);
            }
            if (check.isOver()) {
                throw new IllegalArgumentException("the opening already ends the game ("
                        + check.outcome().orElseThrow().termination() + ")");
            }
            return opening;
        } catch (InvalidSfenException e) {
            throw new IllegalArgumentException(e.getMessage());
        } catch (MoveException e) { // say the variant: a suite of the other variant fails on a move
            throw new IllegalArgumentException(e.getMessage() + " (as a " + variant.displayName() + " move)");
        }
    }
}
