package dev.taikai.scheduler.live;

import dev.taikai.proto.events.v1.LiveEvent;
import dev.taikai.proto.referee.v1.MovePlayed;
import dev.taikai.rules.InvalidSfenException;
import dev.taikai.rules.MoveException;
import dev.taikai.rules.Notation;
import dev.taikai.rules.Position;
import dev.taikai.rules.Sfen;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the referees play now, as the live topic tells it: each game in play as its latest state (the
 * position after the last move, the clocks, each side's last depth, score and pv), and each referee's
 * last status. Every change is numbered ({@link #version()}), and a watcher asks what changed since the
 * number it last saw: it reads the states when it is ready to send, so a fast game's moves between two
 * sends are one update (the watcher counts the superseded ones as dropped, {@link #merged}), a slow
 * browser holds nothing, and the topic's reader does no work for any watcher. A finished game stays
 * {@value #FINISHED_KEPT_MILLIS} ms, marked over.
 */
public final class LiveView {
    static final long FINISHED_KEPT_MILLIS = 10_000;

    /** The remaining time of a side whose time control has no clock (movetime, nodes, depth). */
    public static final long NO_CLOCK = -1;

    /** A side's latest search telemetry, from its last move. */
    public record Info(int depth, String score, List<String> pv) {}

    /**
     * A game in play now, as of its latest event: {@code version} grows with every change, so a frame made
     * of it can be kept until the next. A side's remaining time is its main time left ({@link #NO_CLOCK}
     * for a side without a clock: movetime, nodes or depth), its full main time before its first move.
     */
    public record GameState(
            String gameId,
            String variant,
            String sente,
            String gote,
            String sfen,
            int ply,
            String lastMove,
            long senteRemainingMs,
            long goteRemainingMs,
            Info senteInfo,
            Info goteInfo,
            boolean over,
            String result,
            long publishedUnixMs,
            long version) {}

    /** A referee's last status, when it came ({@link System#currentTimeMillis}) and the change it was. */
    public record Seen(LiveEvent status, long receivedMillis, long version) {}

    /** The keys of what changed after a version, each once, and the version they bring a watcher to. */
    public record Changes(long upTo, List<String> keys) {}

    private static final class Game {
        Variant variant;
        String sente;
        String gote;
        Position position;
        int ply;
        String lastMove = "";
        long senteRemaining;
        long goteRemaining;
        Info senteInfo;
        Info goteInfo;
        boolean over;
        String result = "";
        long published;
        long overAtMillis;
        long version;
    }

    private final Map<String, Game> games = new LinkedHashMap<>();
    private final Map<String, Seen> referees = new LinkedHashMap<>();
    private final AtomicInteger watchers = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong events = new AtomicLong();
    private long versions;

    /** Takes a batch of events from the topic (one poll's), under one lock. */
    public void acceptAll(List<LiveEvent> batch) {
        synchronized (this) {
            for (LiveEvent event : batch) {
                record(event);
            }
            removeOldFinished();
        }
        events.addAndGet(batch.size());
    }

    /** Records what {@code event} changes, numbered; an event that changes nothing is not numbered. */
    private void record(LiveEvent event) {
        if (event.hasStatus()) {
            referees.put(event.getRefereeId(), new Seen(event, System.currentTimeMillis(), ++versions));
            return;
        }
        if (!event.hasGame()) {
            return;
        }
        var gameEvent = event.getGame();
        Game game = games.get(event.getGameId());
        switch (gameEvent.getEventCase()) {
            case STARTED -> {
                var started = gameEvent.getStarted();
                var assignment = started.getAssignment();
                game = new Game();
                game.variant = assignment.getVariant() == dev.taikai.proto.common.v1.Variant.VARIANT_KYOTOSHOGI
                        ? Variant.KYOTOSHOGI
                        : Variant.MINISHOGI;
                game.sente = assignment.getSente().getName();
                game.gote = assignment.getGote().getName();
                game.senteRemaining = mainTime(assignment.getSente().getTimeControl());
                game.goteRemaining = mainTime(assignment.getGote().getTimeControl());
                try {
                    game.position = Sfen.parse(game.variant, started.getStartSfen());
                } catch (InvalidSfenException e) {
                    return; // the referee plays only positions it read: does not happen
                }
                games.put(event.getGameId(), game);
            }
            case MOVE -> {
                if (game == null || game.over) {
                    return;
                }
                MovePlayed move = gameEvent.getMove();
                if (move.getPly() != game.ply + 1) {
                    return; // seen already (a referee's replayed game), or a gap: the state stays as it was
                }
                Info info = new Info(move.getMove().getDepth(), score(move), List.copyOf(move.getPvList()));
                if (game.position.sideToMove() == dev.taikai.rules.Color.SENTE) {
                    game.senteInfo = info;
                } else {
                    game.goteInfo = info;
                }
                try {
                    game.position = game.position.play(
                            Usi.parse(game.position, move.getMove().getMove(), Notation.FAIRY_STOCKFISH));
                } catch (MoveException e) {
                    return;
                }
                game.ply = move.getPly();
                game.lastMove = move.getMove().getMove();
                if (game.senteRemaining != NO_CLOCK) {
                    game.senteRemaining = move.getSenteRemainingMs();
                }
                if (game.goteRemaining != NO_CLOCK) {
                    game.goteRemaining = move.getGoteRemainingMs();
                }
            }
            default -> {
                if (game == null) {
                    return;
                }
                game.over = true;
                game.overAtMillis = System.currentTimeMillis();
                game.result = gameEvent.hasFinished()
                        ? gameEvent
                                        .getFinished()
                                        .getResult()
                                        .name()
                                        .replace("RESULT_", "")
                                        .toLowerCase() + " by "
                                + gameEvent
                                        .getFinished()
                                        .getTermination()
                                        .name()
                                        .replace("TERMINATION_", "")
                                        .toLowerCase()
                        : "abandoned";
            }
        }
        game.published = event.getPublishedUnixMs();
        game.version = ++versions;
    }

    /** A side's main time at the start, or {@link #NO_CLOCK} when its time control has no clock. */
    private static long mainTime(dev.taikai.proto.common.v1.TimeControl control) {
        return switch (control.getKind()) {
            case KIND_MOVETIME, KIND_NODES, KIND_DEPTH -> NO_CLOCK;
            default -> control.getMainMs();
        };
    }

    private static String score(MovePlayed move) {
        var score = move.getMove().getScore();
        return switch (score.getValueCase()) {
            case CP -> score.getCp() + " cp";
            case MATE -> "mate " + score.getMate();
            default -> null;
        };
    }

    private void removeOldFinished() {
        long now = System.currentTimeMillis();
        games.values().removeIf(game -> game.over && now - game.overAtMillis > FINISHED_KEPT_MILLIS);
    }

    /** The number of the latest change: it grows with every change to a game or a referee's status. */
    public synchronized long version() {
        return versions;
    }

    /**
     * What changed after {@code version} and is shown now: each referee whose status and each game whose
     * state is newer (all of them from version 0), referees first.
     */
    public synchronized Changes changedSince(long version) {
        removeOldFinished();
        List<String> keys = new ArrayList<>();
        referees.forEach((id, seen) -> {
            if (seen.version() > version) {
                keys.add("referee:" + id);
            }
        });
        games.forEach((id, game) -> {
            if (game.version > version) {
                keys.add(id);
            }
        });
        return new Changes(versions, keys);
    }

    /** Whether {@code key} (as {@link #changedSince} gives it) is shown now. */
    public synchronized boolean shows(String key) {
        return key.startsWith("referee:")
                ? referees.containsKey(key.substring("referee:".length()))
                : games.containsKey(key);
    }

    /** A game's version now (it grows with every change), or −1 when it is no longer shown. */
    public synchronized long version(String gameId) {
        Game g = games.get(gameId);
        return g == null ? -1 : g.version;
    }

    /** A game's state now, or empty when it is no longer shown. */
    public synchronized Optional<GameState> game(String gameId) {
        Game g = games.get(gameId);
        if (g == null) {
            return Optional.empty();
        }
        return Optional.of(new GameState(
                gameId,
                g.variant.name(),
                g.sente,
                g.gote,
                g.position.toSfen(),
                g.ply,
                g.lastMove,
                g.senteRemaining,
                g.goteRemaining,
                g.senteInfo,
                g.goteInfo,
                g.over,
                g.result,
                g.published,
                g.version));
    }

    /** A referee's last status, or empty. */
    public synchronized Optional<Seen> referee(String refereeId) {
        return Optional.ofNullable(referees.get(refereeId));
    }

    /** Each referee's last status, oldest first. */
    public synchronized List<Seen> referees() {
        return new ArrayList<>(referees.values());
    }

    public synchronized int gamesInPlay() {
        return (int) games.values().stream().filter(g -> !g.over).count();
    }

    /** A watcher starts or stops following the changes. */
    public void watching(boolean started) {
        watchers.addAndGet(started ? 1 : -1);
    }

    /** Watchers following the changes now. */
    public int subscribers() {
        return watchers.get();
    }

    /** A watcher skipped {@code updates}: states it never sent, because a newer one of the same came first. */
    public void merged(long updates) {
        dropped.addAndGet(updates);
    }

    /** Updates watchers never sent, because a newer state of the same game or referee came first. */
    public long dropped() {
        return dropped.get();
    }

    /** Events taken from the topic since the start. */
    public long events() {
        return events.get();
    }
}
