package dev.taikai.enginehost.messages;

import dev.taikai.enginehost.session.BestMove;
import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.enginehost.session.GameEnd;
import dev.taikai.enginehost.session.PipeLog;
import dev.taikai.enginehost.session.PositionCommand;
import dev.taikai.enginehost.session.SearchInfo;
import dev.taikai.enginehost.session.SearchLimits;
import dev.taikai.proto.worker.v1.Go;
import dev.taikai.proto.worker.v1.PipeLine;
import java.util.List;

/**
 * The driver's values as engine-worker protobuf messages and back, for both ends of a session stream.
 * Reading a message checks it: a value the driver would refuse is an {@link IllegalArgumentException}
 * whose message names the field.
 */
public final class WorkerMessages {
    private WorkerMessages() {}

    public static dev.taikai.proto.worker.v1.SearchLimits toProto(SearchLimits limits) {
        var form = switch (limits.form()) {
            case BYOYOMI -> dev.taikai.proto.worker.v1.SearchLimits.Form.FORM_BYOYOMI;
            case FISCHER -> dev.taikai.proto.worker.v1.SearchLimits.Form.FORM_FISCHER;
            case MOVETIME -> dev.taikai.proto.worker.v1.SearchLimits.Form.FORM_MOVETIME;
            case NODES -> dev.taikai.proto.worker.v1.SearchLimits.Form.FORM_NODES;
            case DEPTH -> dev.taikai.proto.worker.v1.SearchLimits.Form.FORM_DEPTH;
            case INFINITE -> throw new IllegalArgumentException("go infinite is not sent to remote engines");
        };
        return dev.taikai.proto.worker.v1.SearchLimits.newBuilder()
                .setForm(form)
                .setSenteMs(limits.senteMillis())
                .setGoteMs(limits.goteMillis())
                .setByoyomiMs(limits.byoyomiMillis())
                .setSenteIncrementMs(limits.senteIncrementMillis())
                .setGoteIncrementMs(limits.goteIncrementMillis())
                .setMovetimeMs(limits.moveTimeMillis())
                .setNodes(limits.nodes())
                .setDepth(limits.depth())
                .setGraceMs(limits.graceMillis())
                .build();
    }

    public static SearchLimits fromProto(dev.taikai.proto.worker.v1.SearchLimits limits) {
        SearchLimits.Form form = switch (limits.getForm()) {
            case FORM_BYOYOMI -> SearchLimits.Form.BYOYOMI;
            case FORM_FISCHER -> SearchLimits.Form.FISCHER;
            case FORM_MOVETIME -> SearchLimits.Form.MOVETIME;
            case FORM_NODES -> SearchLimits.Form.NODES;
            case FORM_DEPTH -> SearchLimits.Form.DEPTH;
            default -> throw new IllegalArgumentException("go.limits.form is missing or unknown");
        };
        if (form == SearchLimits.Form.NODES && limits.getNodes() <= 0) {
            throw new IllegalArgumentException("go.limits.nodes must be positive");
        }
        if (form == SearchLimits.Form.DEPTH && limits.getDepth() <= 0) {
            throw new IllegalArgumentException("go.limits.depth must be positive");
        }
        if (limits.getGraceMs() < 0 || limits.getGraceMs() > 60_000) {
            throw new IllegalArgumentException("go.limits.grace_ms must be 0 to 60000");
        }
        if (form == SearchLimits.Form.MOVETIME && limits.getMovetimeMs() <= 0) {
            throw new IllegalArgumentException("go.limits.movetime_ms must be positive");
        }
        try {
            return new SearchLimits(
                    form,
                    limits.getSenteMs(),
                    limits.getGoteMs(),
                    limits.getByoyomiMs(),
                    limits.getSenteIncrementMs(),
                    limits.getGoteIncrementMs(),
                    limits.getMovetimeMs(),
                    limits.getNodes(),
                    limits.getDepth(),
                    false,
                    limits.getGraceMs());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("go.limits: " + e.getMessage());
        }
    }

    public static Go go(PositionCommand position, SearchLimits limits) {
        return Go.newBuilder()
                .setSfen(position.sfen())
                .addAllMoves(position.moves())
                .setLimits(toProto(limits))
                .build();
    }

    public static PositionCommand position(Go go) {
        try {
            return new PositionCommand(go.getSfen(), go.getMovesList());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("go: " + e.getMessage());
        }
    }

    public static dev.taikai.proto.worker.v1.BestMove toProto(BestMove best) {
        var builder = dev.taikai.proto.worker.v1.BestMove.newBuilder()
                .setMove(best.move())
                .setPonder(best.ponder() == null ? "" : best.ponder())
                .setEngineNs(best.engineNanos())
                .setInfoLines(best.infoLines())
                .setCpuWaitNs(best.cpuWaitNanos());
        if (best.info() != null) {
            builder.setInfo(toProto(best.info()));
        }
        return builder.build();
    }

    /**
     * The engine's answer as the referee sees it: the worker's pipe time is kept as the distance between
     * the two timestamps (the referee's clock and the worker's are not the same clock).
     */
    public static BestMove fromProto(dev.taikai.proto.worker.v1.BestMove best) {
        if (best.getMove().isEmpty()) {
            throw new IllegalArgumentException("best_move.move is empty");
        }
        if (best.getEngineNs() < 0) {
            throw new IllegalArgumentException("best_move.engine_ns is negative: " + best.getEngineNs());
        }
        return new BestMove(
                best.getMove(),
                best.getPonder().isEmpty() ? null : best.getPonder(),
                0,
                best.getEngineNs(),
                best.hasInfo() ? fromProto(best.getInfo()) : null,
                best.getInfoLines(),
                best.getCpuWaitNs());
    }

    public static dev.taikai.proto.worker.v1.SearchInfo toProto(SearchInfo info) {
        var builder = dev.taikai.proto.worker.v1.SearchInfo.newBuilder()
                .setDepth(info.depth())
                .setSeldepth(info.seldepth())
                .setTimeMs(info.timeMillis())
                .setNodes(info.nodes())
                .setNps(info.nodesPerSecond())
                .setHashfull(info.hashfull())
                .addAllPv(info.pv())
                .setText(info.string() == null ? "" : info.string());
        if (info.score() != null) {
            builder.setScore(CommonMessages.toProto(info.score()));
        }
        return builder.build();
    }

    public static SearchInfo fromProto(dev.taikai.proto.worker.v1.SearchInfo info) {
        return new SearchInfo(
                info.getDepth(),
                info.getSeldepth(),
                info.getTimeMs(),
                info.getNodes(),
                info.getNps(),
                info.getHashfull(),
                info.hasScore() ? CommonMessages.score(info.getScore()) : null,
                List.copyOf(info.getPvList()),
                info.getText().isEmpty() ? null : info.getText());
    }

    public static dev.taikai.proto.worker.v1.EngineFailure toProto(EngineFailure failure) {
        var kind = switch (failure.kind()) {
            case START_FAILED -> dev.taikai.proto.worker.v1.EngineFailure.Kind.KIND_START_FAILED;
            case STALL -> dev.taikai.proto.worker.v1.EngineFailure.Kind.KIND_STALL;
            case DISCONNECT -> dev.taikai.proto.worker.v1.EngineFailure.Kind.KIND_DISCONNECT;
            case PROTOCOL_ERROR -> dev.taikai.proto.worker.v1.EngineFailure.Kind.KIND_PROTOCOL_ERROR;
            case VARIANT_UNSUPPORTED -> dev.taikai.proto.worker.v1.EngineFailure.Kind.KIND_VARIANT_UNSUPPORTED;
        };
        return dev.taikai.proto.worker.v1.EngineFailure.newBuilder()
                .setKind(kind)
                .setDetail(failure.detail())
                .addAllStderrTail(failure.stderrTail())
                .build();
    }

    public static EngineFailure fromProto(dev.taikai.proto.worker.v1.EngineFailure failure) {
        EngineFailure.Kind kind = switch (failure.getKind()) {
            case KIND_START_FAILED -> EngineFailure.Kind.START_FAILED;
            case KIND_STALL -> EngineFailure.Kind.STALL;
            case KIND_PROTOCOL_ERROR -> EngineFailure.Kind.PROTOCOL_ERROR;
            case KIND_VARIANT_UNSUPPORTED -> EngineFailure.Kind.VARIANT_UNSUPPORTED;
            default -> EngineFailure.Kind.DISCONNECT;
        };
        return new EngineFailure(kind, failure.getDetail(), failure.getStderrTailList());
    }

    /** Log entries as pipe lines. */
    public static List<dev.taikai.proto.worker.v1.PipeLine> toProto(List<PipeLog.Entry> entries) {
        return entries.stream()
                .map(entry -> dev.taikai.proto.worker.v1.PipeLine.newBuilder()
                        .setUnixMicros(entry.epochMicros())
                        .setDirection(
                                switch (entry.direction()) {
                                    case TO_ENGINE -> PipeLine.Direction.DIRECTION_TO_ENGINE;
                                    case FROM_ENGINE -> PipeLine.Direction.DIRECTION_FROM_ENGINE;
                                    case NOTE -> PipeLine.Direction.DIRECTION_NOTE;
                                })
                        .setText(entry.text())
                        .build())
                .toList();
    }

    /** Pipe lines as log entries; a line of no known direction is a note. */
    public static List<PipeLog.Entry> log(List<PipeLine> lines) {
        return lines.stream()
                .map(line -> new PipeLog.Entry(
                        line.getUnixMicros(),
                        switch (line.getDirection()) {
                            case DIRECTION_TO_ENGINE -> PipeLog.Direction.TO_ENGINE;
                            case DIRECTION_FROM_ENGINE -> PipeLog.Direction.FROM_ENGINE;
                            default -> PipeLog.Direction.NOTE;
                        },
                        line.getText()))
                .toList();
    }

    public static dev.taikai.proto.worker.v1.GameOver.End toProto(GameEnd end) {
        return switch (end) {
            case WIN -> dev.taikai.proto.worker.v1.GameOver.End.END_WIN;
            case LOSE -> dev.taikai.proto.worker.v1.GameOver.End.END_LOSE;
            case DRAW -> dev.taikai.proto.worker.v1.GameOver.End.END_DRAW;
        };
    }

    public static GameEnd fromProto(dev.taikai.proto.worker.v1.GameOver.End end) {
        return switch (end) {
            case END_WIN -> GameEnd.WIN;
            case END_LOSE -> GameEnd.LOSE;
            case END_DRAW -> GameEnd.DRAW;
            default -> throw new IllegalArgumentException("game_over.end is missing or unknown");
        };
    }
}
