package dev.taikai.referee.remote;

import dev.taikai.enginehost.usi.EngineFailure;
import dev.taikai.referee.game.GameHost;
import dev.taikai.referee.game.GameObserver;
import dev.taikai.referee.game.GameRecord;
import dev.taikai.referee.game.Pairing;
import dev.taikai.referee.messages.GameMessages;
import dev.taikai.rules.Color;

/**
 * Plays pairings against engine sessions on workers: both engines are borrowed from the session pool,
 * the game is played by the {@link GameHost} with the transport allowance, and the sessions go back to the
 * pool. An engine that fails to start loses the game as it would on one machine; a worker that is lost
 * abandons the game ({@link WorkerLost} is thrown, nothing is recorded).
 */
public final class RemoteGames {
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
        // waiting for the second engine may take a while: a worker that began to drain meanwhile has ended
        // the first session (it was not in a game yet), so take another before the game begins
        sente = usableOrAgain(sente, pairing.sente(), variant, gote);
        gote = usableOrAgain(gote, pairing.gote(), variant, sente);
        GameRecord record;
        try {
            record = GameHost.play(pairing.game(), sente.session(), gote.session(), transportAllowanceNanos, observer);
        } catch (RuntimeException e) {
            sente.session().cancel("game abandoned");
            gote.session().cancel("game abandoned");
            throw e;
        }
        sessions.giveBack(sente.session(), pairing.sente(), variant, true);
        sessions.giveBack(gote.session(), pairing.gote(), variant, true);
        return GameMessages.toProto(
                pairing,
                record,
                refereeId,
                sente.session().workerId(),
                gote.session().workerId());
    }

    /**
     * {@code opened} when its session can still play, otherwise a new session for {@code engine}; when that
     * cannot be had, {@code other} is given up too and the attempt abandoned ({@link WorkerLost}).
     */
    private RemoteSession.Opened usableOrAgain(
            RemoteSession.Opened opened,
            Pairing.Engine engine,
            dev.taikai.rules.Variant variant,
            RemoteSession.Opened other) {
        if (opened.session().usable()) {
            return opened;
        }
        opened.session().close();
        try {
            RemoteSession.Opened again = sessions.borrow(engine, variant);
            if (again.failure() != null) {
                throw new WorkerLost("engine " + engine.engineId() + " failed to start again after its worker drained");
            }
            return again;
        } catch (RuntimeException e) {
            other.session().cancel("game abandoned");
            throw e;
        }
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
