package dev.taikai.refereeservice.remote;

import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.enginehost.session.GameLog;
import dev.taikai.referee.game.GameHost;
import dev.taikai.referee.game.GameObserver;
import dev.taikai.referee.game.GameRecord;
import dev.taikai.referee.game.Pairing;
import dev.taikai.referee.messages.GameMessages;
import dev.taikai.rules.Color;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Plays pairings against engine sessions on workers: both engines are borrowed together from the session
 * pool (which waits while the workers are full), readied, the game is played by the {@link GameHost} with the transport allowance, and the sessions go
 * back to the pool. An engine that fails to start or to get ready loses the game as it would on one
 * machine. A worker lost before the game begins (it drains, or died, between the pool and the new game)
 * costs nothing: both engines are taken afresh, up to {@link #READY_ATTEMPTS} times. A worker lost during
 * the game abandons it ({@link WorkerLost} is thrown, nothing is recorded).
 */
public final class RemoteGames {
    private static final Logger LOG = Logger.getLogger(RemoteGames.class.getName());

    /** How many pairs of sessions a game may try before its first move before it is abandoned. */
    static final int READY_ATTEMPTS = 3;

    /** The most a game's compressed engine log may take, so that it fits one Kafka message (1 MB). */
    public static final long LOG_CAP_BYTES = 768 * 1024;

    /**
     * A played game: its record as published, and its engine log ({@link GameLog}, gzip-compressed) when
     * the pairing keeps logs or an engine failed, or null.
     */
    public record Played(dev.taikai.proto.common.v1.GameRecord record, byte[] logGzip) {
        /** The record says whether the game has a log ({@code engine_log}), so that no client asks in vain. */
        public Played {
            record = record.toBuilder().setEngineLog(logGzip != null).build();
        }
    }

    private final SessionPool sessions;
    private final long transportAllowanceNanos;
    private final String refereeId;

    public RemoteGames(SessionPool sessions, long transportAllowanceMillis, String refereeId) {
        this.sessions = sessions;
        this.transportAllowanceNanos = transportAllowanceMillis * 1_000_000;
        this.refereeId = refereeId;
    }

    /**
     * What stands before the first move: a game already decided (an engine that did not start), an attempt
     * to make again (a worker lost while the engines got ready), or two ready sessions and, when one of
     * them failed to get ready, the record of that loss.
     */
    private record Readied(
            Played decided, WorkerLost retry, RemoteSession sente, RemoteSession gote, Optional<GameRecord> lost) {}

    /** Plays {@code pairing} and returns its record as published. */
    public dev.taikai.proto.common.v1.GameRecord play(Pairing pairing, GameObserver observer) {
        return playLogged(pairing, observer).record();
    }

    /** Plays {@code pairing} and returns its record as published, with its engine log. */
    public Played playLogged(Pairing pairing, GameObserver observer) {
        long started = System.currentTimeMillis();
        var variant = pairing.game().variant();
        for (int attempt = 1; ; attempt++) {
            // the engines get ready while the pool is held: a session taken from the pool stays idle on its
            // worker (which may give its slot away) until its new game begins
            Readied readied = sessions.borrowBoth(
                    pairing.gameId(),
                    pairing.sente(),
                    pairing.gote(),
                    variant,
                    pairing.engineLogs(),
                    both -> ready(pairing, both, started, observer));
            if (readied.decided() != null) {
                return readied.decided();
            }
            if (readied.retry() != null) {
                if (attempt >= READY_ATTEMPTS) {
                    throw readied.retry();
                }
                LOG.info("game " + pairing.gameId() + ": " + readied.retry().getMessage() + " before the game began;"
                        + " taking new sessions (attempt " + (attempt + 1) + " of " + READY_ATTEMPTS + ")");
                continue;
            }
            RemoteSession senteSession = readied.sente();
            RemoteSession goteSession = readied.gote();
            GameRecord record;
            try {
                record = readied.lost().isPresent()
                        ? readied.lost().get()
                        : GameHost.playReady(
                                pairing.game(), senteSession, goteSession, transportAllowanceNanos, observer);
            } catch (RuntimeException e) {
                abandon(senteSession, goteSession);
                throw e;
            }
            byte[] log = log(List.of(
                    new GameLog.Side(pairing.game().sente(), senteSession.takeLog()),
                    new GameLog.Side(pairing.game().gote(), goteSession.takeLog())));
            sessions.giveBack(senteSession, pairing.sente(), variant, true);
            sessions.giveBack(goteSession, pairing.gote(), variant, true);
            return new Played(
                    GameMessages.toProto(pairing, record, refereeId, senteSession.workerId(), goteSession.workerId()),
                    log);
        }
    }

    /** The game's log, compressed and capped; null when there is nothing in it. */
    private static byte[] log(List<GameLog.Side> sides) {
        return GameLog.any(sides) ? GameLog.gzipped(sides, LOG_CAP_BYTES) : null;
    }

    /** Readies both sessions of {@code pairing}, or decides the game when an engine did not start. */
    private Readied ready(Pairing pairing, SessionPool.Both both, long started, GameObserver observer) {
        var variant = pairing.game().variant();
        RemoteSession.Opened sente = both.sente();
        if (sente.failure() != null) {
            return new Readied(
                    forfeit(pairing, Color.SENTE, sente.failure(), started, observer, "", ""), null, null, null, null);
        }
        RemoteSession.Opened gote = both.gote();
        if (gote.failure() != null) {
            sessions.giveBack(sente.session(), pairing.sente(), variant, true);
            return new Readied(
                    forfeit(
                            pairing,
                            Color.GOTE,
                            gote.failure(),
                            started,
                            observer,
                            sente.session().workerId(),
                            ""),
                    null,
                    null,
                    null,
                    null);
        }
        try {
            Optional<GameRecord> lost =
                    GameHost.ready(pairing.game(), sente.session(), gote.session(), started, observer);
            return new Readied(null, null, sente.session(), gote.session(), lost);
        } catch (WorkerLost e) {
            abandon(sente.session(), gote.session());
            return new Readied(null, e, null, null, null);
        } catch (RuntimeException e) {
            abandon(sente.session(), gote.session());
            throw e;
        }
    }

    /** Breaks both sessions: their workers kill the engines. */
    private static void abandon(RemoteSession sente, RemoteSession gote) {
        sente.cancel("game abandoned");
        gote.cancel("game abandoned");
    }

    private Played forfeit(
            Pairing pairing,
            Color side,
            EngineFailure failure,
            long started,
            GameObserver observer,
            String senteWorker,
            String goteWorker) {
        GameRecord record = GameHost.forfeit(pairing.game(), side, failure, started);
        observer.finished(record);
        String name =
                side == Color.SENTE ? pairing.game().sente() : pairing.game().gote();
        return new Played(
                GameMessages.toProto(pairing, record, refereeId, senteWorker, goteWorker),
                log(List.of(new GameLog.Side(name, GameLog.stderrNotes(failure.stderrTail())))));
    }
}
