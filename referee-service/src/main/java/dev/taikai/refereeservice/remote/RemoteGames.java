package dev.taikai.refereeservice.remote;

import dev.taikai.enginehost.usi.EngineFailure;
import dev.taikai.referee.game.GameHost;
import dev.taikai.referee.game.GameObserver;
import dev.taikai.referee.game.GameRecord;
import dev.taikai.referee.game.Pairing;
import dev.taikai.referee.messages.GameMessages;
import dev.taikai.rules.Color;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Plays pairings against engine sessions on workers: both engines are borrowed from the session pool,
 * readied, the game is played by the {@link GameHost} with the transport allowance, and the sessions go
 * back to the pool. An engine that fails to start or to get ready loses the game as it would on one
 * machine. A worker lost before the game begins (it drains, or died, between the pool and the new game)
 * costs nothing: both engines are taken afresh, up to {@link #READY_ATTEMPTS} times. A worker lost during
 * the game abandons it ({@link WorkerLost} is thrown, nothing is recorded).
 */
public final class RemoteGames {
    private static final Logger LOG = Logger.getLogger(RemoteGames.class.getName());

    /** How many pairs of sessions a game may try before its first move before it is abandoned. */
    static final int READY_ATTEMPTS = 3;

    private final SessionPool sessions;
    private final long transportAllowanceNanos;
    private final String refereeId;

    public RemoteGames(SessionPool sessions, long transportAllowanceMillis, String refereeId) {
        this.sessions = sessions;
        this.transportAllowanceNanos = transportAllowanceMillis * 1_000_000;
        this.refereeId = refereeId;
    }

    /** Plays {@code pairing} and returns its record as published. */
    public dev.taikai.proto.common.v1.GameRecord play(Pairing pairing, GameObserver observer) {
        long started = System.currentTimeMillis();
        var variant = pairing.game().variant();
        for (int attempt = 1; ; attempt++) {
            RemoteSession.Opened sente = sessions.borrow(pairing.sente(), variant);
            if (sente.failure() != null) {
                return forfeit(pairing, Color.SENTE, sente.failure(), started, observer, "", "");
            }
            RemoteSession.Opened gote;
            try {
                gote = sessions.borrow(pairing.gote(), variant);
            } catch (RuntimeException e) {
                sente.session().cancel("game abandoned");
                throw e;
            }
            if (gote.failure() != null) {
                sessions.giveBack(sente.session(), pairing.sente(), variant, true);
                return forfeit(
                        pairing,
                        Color.GOTE,
                        gote.failure(),
                        started,
                        observer,
                        sente.session().workerId(),
                        "");
            }
            RemoteSession senteSession = sente.session();
            RemoteSession goteSession = gote.session();
            Optional<GameRecord> lost;
            try {
                lost = GameHost.ready(pairing.game(), senteSession, goteSession, started, observer);
            } catch (RuntimeException e) {
                abandon(senteSession, goteSession);
                if (!(e instanceof WorkerLost) || attempt >= READY_ATTEMPTS) {
                    throw e;
                }
                LOG.info("game " + pairing.gameId() + ": " + e.getMessage() + " before the game began; taking new"
                        + " sessions (attempt " + (attempt + 1) + " of " + READY_ATTEMPTS + ")");
                continue;
            }
            GameRecord record;
            try {
                record = lost.isPresent()
                        ? lost.get()
                        : GameHost.playReady(
                                pairing.game(), senteSession, goteSession, transportAllowanceNanos, observer);
            } catch (RuntimeException e) {
                abandon(senteSession, goteSession);
                throw e;
            }
            sessions.giveBack(senteSession, pairing.sente(), variant, true);
            sessions.giveBack(goteSession, pairing.gote(), variant, true);
            return GameMessages.toProto(pairing, record, refereeId, senteSession.workerId(), goteSession.workerId());
        }
    }

    /** Breaks both sessions: their workers kill the engines. */
    private static void abandon(RemoteSession sente, RemoteSession gote) {
        sente.cancel("game abandoned");
        gote.cancel("game abandoned");
    }

    private dev.taikai.proto.common.v1.GameRecord forfeit(
            Pairing pairing,
            Color side,
            EngineFailure failure,
            long started,
            GameObserver observer,
            String senteWorker,
            String goteWorker) {
        GameRecord record = GameHost.forfeit(pairing.game(), side, failure, started);
        observer.finished(record);
        return GameMessages.toProto(pairing, record, refereeId, senteWorker, goteWorker);
    }
}
