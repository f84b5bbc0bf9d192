package dev.taikai.cli;

import dev.taikai.rules.Game;
import dev.taikai.rules.InvalidSfenException;
import dev.taikai.rules.MoveException;
import dev.taikai.rules.Notation;
import dev.taikai.rules.Position;
import dev.taikai.rules.Sfen;
import dev.taikai.rules.Variant;
import java.util.List;
import java.util.stream.Collectors;

/** Reading the command line's variants, notations, positions and moves, with usage errors that say what is wrong. */
final class GameArguments {
    private GameArguments() {}

    static Variant variant(String name) {
        return Variant.byName(name)
                .orElseThrow(() -> new ExitCodes.UsageException("unknown variant '" + name + "'; use one of "
                        + Variant.all().stream().map(Variant::name).collect(Collectors.joining(", "))));
    }

    static Notation notation(String id) {
        return Notation.byId(id)
                .orElseThrow(() -> new ExitCodes.UsageException("unknown notation '" + id + "'; use fsf or lishogi"));
    }

    /**
     * {@code startpos} (or no --sfen at all) for the variant's start, otherwise an SFEN in either Kyoto
     * notation; an empty one is refused (an unset shell variable, say), as {@code positions} refuses it.
     */
    static Position position(Variant variant, String sfen) {
        if (sfen == null || sfen.trim().equals("startpos")) {
            return Position.start(variant);
        }
        if (sfen.isBlank()) {
            throw new ExitCodes.UsageException("--sfen is empty; give an SFEN, or startpos for the variant's start");
        }
        try {
            return Sfen.parse(variant, sfen);
        } catch (InvalidSfenException e) {
            throw new ExitCodes.UsageException(e.getMessage());
        }
    }

    /**
     * The position after {@code moves}: every move must be legal in turn, and none may follow the end of
     * the game (a checkmate, or a repetition that ends it), as {@code positions} refuses it.
     */
    static Position play(Position start, List<String> moves) {
        Game game = new Game(start);
        int index = 1;
        for (String text : moves) {
            if (game.isOver()) {
                throw new ExitCodes.UsageException("move " + index + " '" + text + "' comes after the game ended ("
                        + game.outcome().get().detail() + ")");
            }
            try {
                game.play(text);
            } catch (MoveException e) {
                throw new ExitCodes.UsageException("move " + index + ": " + e.getMessage());
            }
            index++;
        }
        return game.position();
    }
}
