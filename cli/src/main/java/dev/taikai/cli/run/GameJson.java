package dev.taikai.cli.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taikai.enginehost.session.Score;
import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.GameRecord;
import dev.taikai.referee.game.MoveRecord;
import dev.taikai.rules.Color;
import dev.taikai.rules.Outcome;
import dev.taikai.rules.Result;
import dev.taikai.rules.Termination;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A game record as JSON, as results.json and the journal hold it: {@code id}, {@code round}, {@code
 * sente}, {@code gote}, {@code result} ({@code sente}, {@code gote} or {@code draw}), {@code
 * termination}, {@code start_sfen}, {@code moves} (USI, Fairy-Stockfish notation), {@code plies}, and
 * per move in {@code move_data}: {@code time_ms} (the engine's, at the pipe), {@code referee_ms} (the
 * referee's own, asking to answer), {@code remaining_ms}, {@code score}, {@code depth}, {@code nodes}.
 */
final class GameJson {
    private GameJson() {}

    static ObjectNode write(GameRecord record, ObjectMapper mapper) {
        GameAssignment a = record.assignment();
        ObjectNode game = mapper.createObjectNode();
        game.put("id", record.id());
        game.put("round", a.round());
        game.put("pairing", a.pairing());
        game.put("game", a.gameInPairing());
        game.put("sente", a.sente());
        game.put("gote", a.gote());
        Color winner = record.outcome().winner();
        game.put("result", winner == null ? "draw" : winner == Color.SENTE ? "sente" : "gote");
        game.put("termination", record.outcome().termination().name().toLowerCase(Locale.ROOT));
        game.put("detail", record.outcome().detail());
        game.put("variant", a.variant().name());
        game.put("start_sfen", record.startSfen());
        game.put("opening", a.opening().toString());
        ObjectNode timeControl = game.putObject("time_control");
        timeControl.put("sente", a.senteTimeControl().toString());
        timeControl.put("gote", a.goteTimeControl().toString());
        timeControl.put("sente_overrun_margin_ms", a.senteMarginMillis());
        timeControl.put("gote_overrun_margin_ms", a.goteMarginMillis());
        if (record.timeLossOverrunNanos() > 0) {
            game.put("time_loss_overrun_ms", Math.round(record.timeLossOverrunNanos() / 1000.0) / 1000.0);
        }
        ArrayNode moves = game.putArray("moves");
        ArrayNode data = mapper.createArrayNode();
        for (MoveRecord move : record.moves()) {
            moves.add(move.move());
            ObjectNode entry = data.addObject();
            entry.put("time_ms", Math.round(move.timeNanos() / 1000.0) / 1000.0);
            entry.put("referee_ms", Math.round(move.refereeNanos() / 1000.0) / 1000.0);
            entry.put("remaining_ms", move.remainingMillis());
            entry.put("allowed_ms", Math.round(move.allowedNanos() / 1000.0) / 1000.0);
            entry.put("overrun_ms", Math.round(move.overrunNanos() / 1000.0) / 1000.0);
            entry.put("cpu_wait_ms", Math.round(move.cpuWaitNanos() / 1000.0) / 1000.0);
            if (move.score() == null) {
                entry.putNull("score");
            } else {
                ObjectNode score = entry.putObject("score");
                score.put(move.score().mate() ? "mate" : "cp", move.score().value());
                if (move.score().bound() != Score.Bound.EXACT) {
                    score.put("bound", move.score().bound().name().toLowerCase(Locale.ROOT));
                }
            }
            entry.put("depth", move.depth());
            entry.put("nodes", move.nodes());
        }
        game.put("plies", record.plies());
        game.set("move_data", data);
        game.put("started", Instant.ofEpochMilli(record.startedEpochMillis()).toString());
        game.put("finished", Instant.ofEpochMilli(record.finishedEpochMillis()).toString());
        return game;
    }

    /** The record of a journal line, for the planned game it names. */
    /** The constant of {@code type} that {@code text} names in lower case, or an error naming the field. */
    private static <E extends Enum<E>> E known(Class<E> type, String field, String text) {
        for (E constant : type.getEnumConstants()) {
            if (constant.name().toLowerCase(Locale.ROOT).equals(text)) {
                return constant;
            }
        }
        throw new IllegalArgumentException(field + " '" + text + "' is not one Taikai writes");
    }

    static GameRecord read(JsonNode game, GameAssignment assignment) {
        String result = game.get("result").asText();
        Result outcome = switch (result) {
            case "sente" -> Result.SENTE_WINS;
            case "gote" -> Result.GOTE_WINS;
            case "draw" -> Result.DRAW;
            default -> throw new IllegalArgumentException("result '" + result + "'");
        };
        Termination termination =
                known(Termination.class, "termination", game.get("termination").asText());
        List<MoveRecord> moves = new ArrayList<>();
        JsonNode texts = game.get("moves");
        JsonNode data = game.get("move_data");
        for (int i = 0; i < texts.size(); i++) {
            JsonNode entry = data.get(i);
            JsonNode scoreNode = entry.get("score");
            Score score = null;
            if (scoreNode != null && !scoreNode.isNull()) {
                boolean mate = scoreNode.has("mate");
                Score.Bound bound = scoreNode.has("bound")
                        ? known(
                                Score.Bound.class,
                                "bound",
                                scoreNode.get("bound").asText())
                        : Score.Bound.EXACT;
                score = new Score(mate, scoreNode.get(mate ? "mate" : "cp").asInt(), bound);
            }
            moves.add(new MoveRecord(
                    texts.get(i).asText(),
                    Math.round(entry.get("time_ms").asDouble() * 1_000_000),
                    Math.round(entry.path("referee_ms").asDouble() * 1_000_000),
                    entry.get("remaining_ms").asLong(),
                    score,
                    entry.get("depth").asInt(),
                    entry.get("nodes").asLong(),
                    Math.round(entry.get("time_ms").asDouble() * 1_000_000),
                    Math.round(entry.path("allowed_ms").asDouble() * 1_000_000),
                    Math.round(entry.path("overrun_ms").asDouble() * 1_000_000),
                    Math.round(entry.path("cpu_wait_ms").asDouble() * 1_000_000)));
        }
        return new GameRecord(
                assignment,
                game.get("start_sfen").asText(),
                moves,
                new Outcome(outcome, termination, game.get("detail").asText()),
                Instant.parse(game.get("started").asText()).toEpochMilli(),
                Instant.parse(game.get("finished").asText()).toEpochMilli(),
                Math.round(game.path("time_loss_overrun_ms").asDouble() * 1_000_000));
    }
}
