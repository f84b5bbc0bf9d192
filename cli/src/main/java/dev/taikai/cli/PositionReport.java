package dev.taikai.cli;

import dev.taikai.rules.Game;
import dev.taikai.rules.InvalidSfenException;
import dev.taikai.rules.MoveException;
import dev.taikai.rules.Notation;
import dev.taikai.rules.Outcome;
import dev.taikai.rules.Perft;
import dev.taikai.rules.Position;
import dev.taikai.rules.Sfen;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/** One input line of {@code taikai positions} turned into its JSON line. */
final class PositionReport {
    private final Notation notation;
    private final Integer perftDepth;

    PositionReport(Notation notation, Integer perftDepth) {
        this.notation = notation;
        this.perftDepth = perftDepth;
    }

    /** The JSON object for a line that could not be read as a position at all. */
    static String failure(String error) {
        return "{\"sfen\":null,\"turn\":null,\"in_check\":null,\"status\":null,\"winner\":null,"
                + "\"moves_applied\":0,\"error\":" + quote(error) + ",\"legal\":[]}";
    }

    String describe(String line) {
        String[] fields = line.split("\t", -1);
        if (fields.length < 2 || fields.length > 3) {
            return failure("expected 'variant<TAB>sfen-or-startpos<TAB>moves', found " + fields.length
                    + " tab-separated field" + (fields.length == 1 ? "" : "s"));
        }
        Optional<Variant> variant = Variant.byName(fields[0].trim());
        if (variant.isEmpty()) {
            return failure("unknown variant '" + fields[0].trim() + "'; use minishogi or kyotoshogi");
        }
        Position start;
        try {
            String sfen = fields[1].trim();
            start = sfen.equals("startpos") ? Position.start(variant.get()) : Sfen.parse(variant.get(), sfen);
        } catch (InvalidSfenException e) {
            return failure(e.getMessage());
        }
        Game game = new Game(start);
        String error = null;
        // Moves are separated by spaces only: any other character, a control character among them,
        // belongs to a move and makes it unreadable rather than splitting it in two.
        String[] moves =
                fields.length == 3 ? fields[2].replaceAll("^ +| +$", "").split(" +") : new String[0];
        for (int i = 0; i < moves.length && error == null; i++) {
            if (moves[i].isEmpty()) {
                continue;
            }
            if (game.isOver()) {
                error = "move " + (i + 1) + " '" + moves[i] + "' comes after the game ended ("
                        + status(game.outcome().get()) + ")";
            } else {
                try {
                    game.play(moves[i]);
                } catch (MoveException e) {
                    error = "move " + (i + 1) + ": " + e.getMessage();
                }
            }
        }
        return json(game, error);
    }

    private String json(Game game, String error) {
        Position position = game.position();
        Outcome outcome = game.outcome().orElse(null);
        StringBuilder out = new StringBuilder(256);
        out.append("{\"sfen\":").append(quote(position.toSfen(notation)));
        out.append(",\"turn\":\"").append(position.sideToMove().sfenLetter()).append('"');
        out.append(",\"in_check\":").append(position.inCheck());
        out.append(",\"status\":\"")
                .append(outcome == null ? "ongoing" : status(outcome))
                .append('"');
        out.append(",\"winner\":")
                .append(
                        outcome == null || outcome.winner() == null
                                ? "null"
                                : "\"" + outcome.winner().sfenLetter() + "\"");
        out.append(",\"moves_applied\":").append(game.plies());
        out.append(",\"error\":").append(quote(error));
        out.append(",\"legal\":[");
        List<String> legal = new ArrayList<>();
        for (int move : game.legalMoves()) {
            legal.add(Usi.format(move, game.variant(), notation));
        }
        Collections.sort(legal);
        for (int i = 0; i < legal.size(); i++) {
            out.append(i == 0 ? "" : ",").append('"').append(legal.get(i)).append('"');
        }
        out.append(']');
        if (perftDepth != null) {
            out.append(",\"perft\":{\"depth\":")
                    .append(perftDepth)
                    .append(",\"nodes\":")
                    .append(Perft.count(position, perftDepth))
                    .append('}');
        }
        return out.append('}').toString();
    }

    private static String status(Outcome outcome) {
        return switch (outcome.termination()) {
            case CHECKMATE -> "checkmate";
            case STALEMATE -> "stalemate";
            case REPETITION -> "repetition";
            case PERPETUAL_CHECK -> "perpetual_check";
            default -> throw new IllegalStateException("not a rules ending: " + outcome.termination());
        };
    }

    /** {@code text} as a JSON string literal (surrogates escaped, so bad input stays readable), or {@code null}. */
    private static String quote(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            switch (ch) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (ch < 0x20 || (ch >= 0xD800 && ch <= 0xDFFF)) {
                        out.append(String.format("\\u%04x", (int) ch));
                    } else {
                        out.append(ch);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
