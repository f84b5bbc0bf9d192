package dev.taikai.referee.messages;

import dev.taikai.enginehost.catalog.EngineText;
import dev.taikai.enginehost.messages.CommonMessages;
import dev.taikai.proto.common.v1.PlayerAssignment;
import dev.taikai.referee.game.Adjudication;
import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.GameRecord;
import dev.taikai.referee.game.MoveRecord;
import dev.taikai.referee.game.Opening;
import dev.taikai.referee.game.Pairing;
import dev.taikai.referee.game.TimeControl;
import dev.taikai.rules.InvalidSfenException;
import dev.taikai.rules.MoveException;
import dev.taikai.rules.Outcome;
import dev.taikai.rules.Result;
import dev.taikai.rules.Sfen;
import dev.taikai.rules.Termination;
import dev.taikai.rules.Variant;
import java.util.ArrayList;
import java.util.List;

/**
 * Games as the contracts' protobuf messages ({@code taikai.common.v1}) and back. Reading a message checks
 * it the way the referee checks anything from outside: a missing or impossible field is an {@link
 * IllegalArgumentException} whose message names the field.
 */
public final class GameMessages {
    /** Longest name, id or option text accepted from a message. */
    static final int MAX_TEXT = 200;

    private GameMessages() {}

    public static dev.taikai.proto.common.v1.GameAssignment toProto(Pairing pairing) {
        GameAssignment g = pairing.game();
        return dev.taikai.proto.common.v1.GameAssignment.newBuilder()
                .setGameId(pairing.gameId())
                .setTournamentId(pairing.tournamentId())
                .setLocalId(g.gameId())
                .setRound(g.round())
                .setPairing(g.pairing())
                .setGameInPairing(g.gameInPairing())
                .setVariant(CommonMessages.toProto(g.variant()))
                .setSente(player(g.sente(), pairing.sente(), g.senteTimeControl(), g.senteMarginMillis()))
                .setGote(player(g.gote(), pairing.gote(), g.goteTimeControl(), g.goteMarginMillis()))
                .setOpeningSfen(g.opening().sfen())
                .addAllOpeningMoves(g.opening().moves())
                .setAdjudication(toProto(g.adjudication()))
                .setPlanIndex(pairing.planIndex())
                .setEngineLogs(pairing.engineLogs())
                .build();
    }

    private static PlayerAssignment player(
            String name, Pairing.Engine engine, TimeControl timeControl, long marginMillis) {
        return PlayerAssignment.newBuilder()
                .setName(name)
                .setEngineId(engine.engineId())
                .putAllOptions(engine.options())
                .setTimeControl(toProto(timeControl))
                .setOverrunMarginMs(marginMillis)
                .build();
    }

    /** The pairing a message describes, every field checked. */
    public static Pairing pairing(dev.taikai.proto.common.v1.GameAssignment message) {
        String tournamentId = text("tournament_id", message.getTournamentId());
        String localId = text("local_id", message.getLocalId());
        if (!message.getGameId().equals(Pairing.globalId(tournamentId, localId))) {
            throw new IllegalArgumentException(
                    "game_id '" + message.getGameId() + "' is not '" + Pairing.globalId(tournamentId, localId) + "'");
        }
        positive("round", message.getRound());
        positive("pairing", message.getPairing());
        positive("game_in_pairing", message.getGameInPairing());
        if (message.getPlanIndex() < 0) {
            throw new IllegalArgumentException("plan_index is negative");
        }
        Variant variant = CommonMessages.variant(message.getVariant());
        PlayerAssignment sente = message.getSente();
        PlayerAssignment gote = message.getGote();
        String senteName = EngineText.name("sente.name", sente.getName());
        String goteName = EngineText.name("gote.name", gote.getName());
        if (senteName.equals(goteName)) {
            throw new IllegalArgumentException("sente.name and gote.name are both '" + senteName + "'");
        }
        margin("sente.overrun_margin_ms", sente.getOverrunMarginMs());
        margin("gote.overrun_margin_ms", gote.getOverrunMarginMs());
        GameAssignment game = new GameAssignment(
                localId,
                message.getRound(),
                message.getPairing(),
                message.getGameInPairing(),
                variant,
                senteName,
                goteName,
                opening(variant, message.getOpeningSfen(), message.getOpeningMovesList()),
                timeControl("sente.time_control", sente.getTimeControl()),
                timeControl("gote.time_control", gote.getTimeControl()),
                sente.getOverrunMarginMs(),
                gote.getOverrunMarginMs(),
                adjudication(message.getAdjudication()));
        return new Pairing(
                tournamentId,
                game,
                engine("sente", sente),
                engine("gote", gote),
                message.getPlanIndex(),
                message.getEngineLogs());
    }

    private static void margin(String field, long millis) {
        if (millis < 0 || millis > dev.taikai.referee.game.OverrunMargin.MAX_MILLIS) {
            throw new IllegalArgumentException(
                    field + " must be 0 to " + dev.taikai.referee.game.OverrunMargin.MAX_MILLIS + ", not " + millis);
        }
    }

    private static Pairing.Engine engine(String side, PlayerAssignment player) {
        String id = EngineText.engineId(side + ".engine_id", player.getEngineId());
        return new Pairing.Engine(id, EngineText.options(side + ".options", player.getOptionsMap()));
    }

    private static Opening opening(Variant variant, String sfen, List<String> moves) {
        if (moves.size() > 1000) {
            throw new IllegalArgumentException("opening_moves has " + moves.size() + " moves; at most 1000");
        }
        try {
            return Opening.of(Sfen.parse(variant, sfen), moves);
        } catch (InvalidSfenException e) {
            throw new IllegalArgumentException("opening_sfen: " + e.getMessage());
        } catch (MoveException e) {
            throw new IllegalArgumentException("opening_moves: " + e.getMessage());
        }
    }

    public static dev.taikai.proto.common.v1.TimeControl toProto(TimeControl tc) {
        var kind = switch (tc.kind()) {
            case SUDDEN_DEATH -> dev.taikai.proto.common.v1.TimeControl.Kind.KIND_SUDDEN_DEATH;
            case FISCHER -> dev.taikai.proto.common.v1.TimeControl.Kind.KIND_FISCHER;
            case BYOYOMI -> dev.taikai.proto.common.v1.TimeControl.Kind.KIND_BYOYOMI;
            case MOVETIME -> dev.taikai.proto.common.v1.TimeControl.Kind.KIND_MOVETIME;
            case NODES -> dev.taikai.proto.common.v1.TimeControl.Kind.KIND_NODES;
            case DEPTH -> dev.taikai.proto.common.v1.TimeControl.Kind.KIND_DEPTH;
        };
        return dev.taikai.proto.common.v1.TimeControl.newBuilder()
                .setKind(kind)
                .setMainMs(tc.mainMillis())
                .setIncrementMs(tc.incrementMillis())
                .setByoyomiMs(tc.byoyomiMillis())
                .setMovetimeMs(tc.moveTimeMillis())
                .setNodes(tc.nodes())
                .setDepth(tc.depth())
                .build();
    }

    /** The time control a message describes; {@code field} names it in errors. */
    public static TimeControl timeControl(String field, dev.taikai.proto.common.v1.TimeControl tc) {
        long day = 86_400_000L;
        if (tc.getMainMs() > 7 * day
                || tc.getIncrementMs() > day
                || tc.getByoyomiMs() > day
                || tc.getMovetimeMs() > day) {
            throw new IllegalArgumentException(
                    field + ": a time longer than allowed (a week of main time, a day per move)");
        }
        try {
            return switch (tc.getKind()) {
                case KIND_SUDDEN_DEATH -> TimeControl.suddenDeath(positiveTime(field + ".main_ms", tc.getMainMs()));
                case KIND_FISCHER ->
                    TimeControl.fischer(positiveTime(field + ".main_ms", tc.getMainMs()), tc.getIncrementMs());
                case KIND_BYOYOMI -> TimeControl.byoyomi(tc.getMainMs(), tc.getByoyomiMs());
                case KIND_MOVETIME -> TimeControl.moveTime(positiveTime(field + ".movetime_ms", tc.getMovetimeMs()));
                case KIND_NODES -> TimeControl.nodes(positiveTime(field + ".nodes", tc.getNodes()));
                case KIND_DEPTH -> TimeControl.depth((int) positiveTime(field + ".depth", tc.getDepth()));
                default -> throw new IllegalArgumentException(field + ".kind is missing or unknown");
            };
        } catch (IllegalArgumentException e) {
            throw e.getMessage().startsWith(field) ? e : new IllegalArgumentException(field + ": " + e.getMessage());
        }
    }

    /**
     * Refuses a value the kind of {@code tc} has no use for: it would be taken and ignored. For what a user
     * gives (a new tournament, a join); not for what was taken before (a state rebuilt from Kafka).
     */
    public static void refuseUnusedTimes(String field, dev.taikai.proto.common.v1.TimeControl tc) {
        java.util.Set<String> used = switch (tc.getKind()) {
            case KIND_SUDDEN_DEATH -> java.util.Set.of("main_ms");
            case KIND_FISCHER -> java.util.Set.of("main_ms", "increment_ms");
            case KIND_BYOYOMI -> java.util.Set.of("main_ms", "byoyomi_ms");
            case KIND_MOVETIME -> java.util.Set.of("movetime_ms");
            case KIND_NODES -> java.util.Set.of("nodes");
            case KIND_DEPTH -> java.util.Set.of("depth");
            default -> null; // no kind: refused as such
        };
        if (used == null) {
            return;
        }
        var values = new java.util.LinkedHashMap<String, Long>();
        values.put("main_ms", tc.getMainMs());
        values.put("increment_ms", tc.getIncrementMs());
        values.put("byoyomi_ms", tc.getByoyomiMs());
        values.put("movetime_ms", tc.getMovetimeMs());
        values.put("nodes", tc.getNodes());
        values.put("depth", (long) tc.getDepth());
        for (var value : values.entrySet()) {
            if (value.getValue() != 0 && !used.contains(value.getKey())) {
                throw new IllegalArgumentException(field + "." + value.getKey() + ": a time control of kind "
                        + tc.getKind().name() + " has none (it would be ignored); leave it out");
            }
        }
    }

    private static long positiveTime(String field, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(field + " must be positive, not " + value);
        }
        return value;
    }

    public static dev.taikai.proto.common.v1.Adjudication toProto(Adjudication a) {
        return dev.taikai.proto.common.v1.Adjudication.newBuilder()
                .setMoveLimitPlies(a.moveLimitPlies())
                .setResignScore(a.resignScore())
                .setResignMoves(a.resignMoves())
                .setDrawScore(a.drawScore())
                .setDrawMoves(a.drawMoves())
                .setDrawAfterPlies(a.drawAfterPlies())
                .build();
    }

    public static Adjudication adjudication(dev.taikai.proto.common.v1.Adjudication a) {
        try {
            return new Adjudication(
                    a.getMoveLimitPlies(),
                    a.getResignScore(),
                    a.getResignMoves(),
                    a.getDrawScore(),
                    a.getDrawMoves(),
                    a.getDrawAfterPlies());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("adjudication: " + e.getMessage());
        }
    }

    /**
     * A finished game as published.
     *
     * @param refereeId the replica that played it
     */
    public static dev.taikai.proto.common.v1.GameRecord toProto(
            Pairing pairing, GameRecord record, String refereeId, String senteWorker, String goteWorker) {
        var builder = dev.taikai.proto.common.v1.GameRecord.newBuilder()
                .setAssignment(toProto(pairing))
                .setStartSfen(record.startSfen())
                .setResult(toProto(record.outcome().result()))
                .setTermination(toProto(record.outcome().termination()))
                .setDetail(record.outcome().detail())
                .setStartedUnixMs(record.startedEpochMillis())
                .setFinishedUnixMs(record.finishedEpochMillis())
                .setRefereeId(refereeId)
                .setSenteWorker(senteWorker)
                .setGoteWorker(goteWorker)
                .setTimeLossOverrunNs(record.timeLossOverrunNanos());
        for (MoveRecord move : record.moves()) {
            builder.addMoves(toProto(move));
        }
        return builder.build();
    }

    /** One move as a record and the live view publish it: the same fields in both. */
    public static dev.taikai.proto.common.v1.MoveRecord toProto(MoveRecord move) {
        var m = dev.taikai.proto.common.v1.MoveRecord.newBuilder()
                .setMove(move.move())
                .setEngineNs(move.timeNanos())
                .setRefereeNs(move.refereeNanos())
                .setChargedNs(move.chargedNanos())
                .setRemainingMs(move.remainingMillis())
                .setDepth(move.depth())
                .setNodes(move.nodes())
                .setAllowedNs(move.allowedNanos())
                .setOverrunNs(move.overrunNanos())
                .setCpuWaitNs(move.cpuWaitNanos());
        if (move.score() != null) {
            m.setScore(CommonMessages.toProto(move.score()));
        }
        return m.build();
    }

    /** A published record read back: its pairing and the game, every field checked. */
    public record Read(Pairing pairing, GameRecord record) {}

    public static Read record(dev.taikai.proto.common.v1.GameRecord message) {
        Pairing pairing = pairing(message.getAssignment());
        List<MoveRecord> moves = new ArrayList<>();
        for (var m : message.getMovesList()) {
            moves.add(new MoveRecord(
                    text("moves.move", m.getMove()),
                    m.getEngineNs(),
                    m.getRefereeNs(),
                    m.getRemainingMs(),
                    m.hasScore() ? CommonMessages.score(m.getScore()) : null,
                    m.getDepth(),
                    m.getNodes(),
                    m.getChargedNs(),
                    m.getAllowedNs(),
                    m.getOverrunNs(),
                    m.getCpuWaitNs()));
        }
        Outcome outcome =
                new Outcome(result(message.getResult()), termination(message.getTermination()), message.getDetail());
        GameRecord record = new GameRecord(
                pairing.game(),
                message.getStartSfen(),
                moves,
                outcome,
                message.getStartedUnixMs(),
                message.getFinishedUnixMs(),
                message.getTimeLossOverrunNs());
        return new Read(pairing, record);
    }

    public static dev.taikai.proto.common.v1.Result toProto(Result result) {
        return dev.taikai.proto.common.v1.Result.valueOf("RESULT_" + result.name());
    }

    public static Result result(dev.taikai.proto.common.v1.Result result) {
        if (result == dev.taikai.proto.common.v1.Result.RESULT_UNSPECIFIED
                || result == dev.taikai.proto.common.v1.Result.UNRECOGNIZED) {
            throw new IllegalArgumentException("result is missing or unknown");
        }
        return Result.valueOf(result.name().substring("RESULT_".length()));
    }

    public static dev.taikai.proto.common.v1.Termination toProto(Termination termination) {
        return dev.taikai.proto.common.v1.Termination.valueOf("TERMINATION_" + termination.name());
    }

    public static Termination termination(dev.taikai.proto.common.v1.Termination termination) {
        if (termination == dev.taikai.proto.common.v1.Termination.TERMINATION_UNSPECIFIED
                || termination == dev.taikai.proto.common.v1.Termination.UNRECOGNIZED) {
            throw new IllegalArgumentException("termination is missing or unknown");
        }
        return Termination.valueOf(termination.name().substring("TERMINATION_".length()));
    }

    /** A required text field: present, at most {@link #MAX_TEXT} characters, no control characters. */
    static String text(String field, String value) {
        if (value.isEmpty()) {
            throw new IllegalArgumentException(field + " is missing");
        }
        if (value.length() > MAX_TEXT) {
            throw new IllegalArgumentException(field + " is longer than " + MAX_TEXT + " characters");
        }
        if (value.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException(field + " contains control characters");
        }
        return value;
    }

    private static void positive(String field, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(field + " must be at least 1, not " + value);
        }
    }
}
