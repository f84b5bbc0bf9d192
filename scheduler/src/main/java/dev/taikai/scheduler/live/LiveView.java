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
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the referees play now, as the live topic tells it: each game in play as its latest state (the
 * position after the last move, the clocks, each side's last depth, score and pv), and each referee's
 * last status. Watchers are told which game changed, not each move: a watcher reads the state when it
 * is ready to send, so a fast game's moves between two sends are one update (the superseded ones are
 * counted as dropped), a slow browser holds one state per game and nothing more, and no watcher can
 * slow the games or another watcher. A finished game stays {@value #FINISHED_KEPT_MILLIS} ms, marked over.
 */
public final class LiveView {
    static final long FINISHED_KEPT_MILLIS = 10_000;

    /** A watcher's side: told of each change by key (a game id, or "referee:" and a referee id); must not block. */
    public interface Subscriber {
        /** {@code key} changed; false when this subscriber still had its previous change unsent. */
        boolean changed(String key);
    }

    /** A side's latest search telemetry, from its last move. */
    public record Info(int depth, String score, List<String> pv) {}

    /**
     * A game in play now, as of its latest event: {@code version} grows with every change, so a frame made
     * of it can be kept until the next.
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

    /** A referee's last status and when it came ({@link System#currentTimeMillis}). */
    public record Seen(LiveEvent status, long receivedMillis) {}

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
    private final Set<Subscriber> subscribers = new CopyOnWriteArraySet<>();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong events = new AtomicLong();
    private long versions;

    /** Takes one event from the topic and tells every subscriber what changed. */
    public void accept(LiveEvent event) {
        acceptAll(List.of(event));
    }

    /**
     * Takes a batch of events from the topic (one poll's) and then tells every subscriber once of each key
     * that changed, not once an event: a game's moves within the batch are one change to a subscriber, and
     * the ones it then never sees are counted as dropped, as are changes a subscriber still had unsent.
     */
    public void acceptAll(List<LiveEvent> batch) {
        Map<String, Integer> changes = new LinkedHashMap<>();
        synchronized (this) {
            for (LiveEvent event : batch) {
                String key = record(event);
                if (key != null) {
                    changes.merge(key, 1, Integer::sum);
                }
            }
            removeOldFinished();
        }
        events.addAndGet(batch.size());
        for (Subscriber subscriber : subscribers) {
            long superseded = 0;
            for (Map.Entry<String, Integer> change : changes.entrySet()) {
                superseded += change.getValue() - 1;
                if (!subscriber.changed(change.getKey())) {
                    superseded++;
                }
            }
            dropped.addAndGet(superseded);
        }
    }

    /** The key of what changed, or null when nothing did. */
    private String record(LiveEvent event) {
        if (event.hasStatus()) {
            referees.put(event.getRefereeId(), new Seen(event, System.currentTimeMillis()));
            return "referee:" + event.getRefereeId();
        }
        if (!event.hasGame()) {
            return null;
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
                try {
                    game.position = Sfen.parse(game.variant, started.getStartSfen());
                } catch (InvalidSfenException e) {
                    return null; // the referee plays only positions it read: does not happen
                }
                games.put(event.getGameId(), game);
            }
            case MOVE -> {
                if (game == null || game.over) {
                    return null;
                }
                MovePlayed move = gameEvent.getMove();
                if (move.getPly() != game.ply + 1) {
                    return null; // seen already (a referee's replayed game), or a gap: the state stays as it was
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
                    return null;
                }
                game.ply = move.getPly();
                game.lastMove = move.getMove().getMove();
                game.senteRemaining = move.getSenteRemainingMs();
                game.goteRemaining = move.getGoteRemainingMs();
            }
            default -> {
                if (game == null) {
                    return null;
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
        return event.getGameId();
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

    /** Registers {@code subscriber}; it then reads {@link #keys} for what there is now. */
    public void subscribe(Subscriber subscriber) {
        subscribers.add(subscriber);
    }

    public void unsubscribe(Subscriber subscriber) {
        subscribers.remove(subscriber);
    }

    /** The keys of everything there is now: each referee's status and each game's state. */
    public synchronized List<String> keys() {
        removeOldFinished();
        List<String> keys = new ArrayList<>();
        referees.keySet().forEach(id -> keys.add("referee:" + id));
        keys.addAll(games.keySet());
        return keys;
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

    public int subscribers() {
        return subscribers.size();
    }

    /** Updates a watcher never sent, because a newer state of the same game came first. */
    public long dropped() {
        return dropped.get();
    }

    /** Events taken from the topic since the start. */
    public long events() {
        return events.get();
    }
}
