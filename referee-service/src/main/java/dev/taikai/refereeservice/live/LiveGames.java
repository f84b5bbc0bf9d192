package dev.taikai.refereeservice.live;

import dev.taikai.proto.common.v1.GameRecord;
import dev.taikai.proto.referee.v1.GameEvent;
import dev.taikai.proto.referee.v1.GameStarted;
import dev.taikai.proto.referee.v1.LiveGame;
import dev.taikai.proto.referee.v1.MovePlayed;
import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.GameObserver;
import dev.taikai.referee.game.MoveRecord;
import dev.taikai.referee.game.Pairing;
import dev.taikai.referee.messages.GameMessages;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The games this referee plays now, for watchers, and the last {@code keep} it finished. A watcher gets
 * everything so far at once and then each event as it happens; it must be quick and must not throw.
 */
public final class LiveGames {
    /**
     * Receives every game's events as they happen (the live topic's publisher): started, each move,
     * finished with the record, and an event with nothing set when a game is abandoned. It must not block.
     */
    public interface Feed {
        Feed NONE = (gameId, event) -> {};

        void event(String gameId, GameEvent event);
    }

    /** Receives one game's events; {@link #end} after the last. */
    public interface Watcher {
        void event(GameEvent event);

        void end();
    }

    private final class Live implements GameObserver {
        final Pairing pairing;
        final dev.taikai.proto.common.v1.GameAssignment assignment;
        final long startedMillis = System.currentTimeMillis();
        final List<GameEvent> events = new ArrayList<>();
        final List<Watcher> watchers = new CopyOnWriteArrayList<>();
        int plies;
        /** Set under the game's lock when it ends: its record, or null when it was abandoned. */
        boolean done;

        GameRecord record;

        Live(Pairing pairing) {
            this.pairing = pairing;
            this.assignment = GameMessages.toProto(pairing);
        }

        @Override
        public void started(GameAssignment game, String startSfen) {
            publish(GameEvent.newBuilder()
                    .setStarted(GameStarted.newBuilder()
                            .setAssignment(assignment)
                            .setStartSfen(startSfen)
                            .setSenteEngine(pairing.sente().engineId())
                            .setGoteEngine(pairing.gote().engineId()))
                    .build());
        }

        @Override
        public void moved(int ply, MoveRecord move, long senteRemaining, long goteRemaining, List<String> pv) {
            var m = GameMessages.toProto(move);
            synchronized (this) {
                plies = ply;
            }
            publish(GameEvent.newBuilder()
                    .setMove(MovePlayed.newBuilder()
                            .setPly(ply)
                            .setMove(m)
                            .setSenteRemainingMs(senteRemaining)
                            .setGoteRemainingMs(goteRemaining)
                            .addAllPv(pv))
                    .build());
        }

        /** Records and sends an event; under the game's lock, so a new watcher sees each event once. */
        private synchronized void publish(GameEvent event) {
            events.add(event);
            feed.event(pairing.gameId(), event);
            for (Watcher watcher : watchers) {
                watcher.event(event);
            }
        }
    }

    private final int keep;
    /** Where every event also goes ({@link #feedTo}); none until the service has its Kafka producer. */
    private volatile Feed feed = Feed.NONE;

    private final Map<String, Live> live = new LinkedHashMap<>();
    private final LinkedHashMap<String, GameRecord> finished;

    /** Keeps the last {@code keep} finished games. */
    public LiveGames(int keep) {
        this.keep = keep;
        this.finished = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, GameRecord> eldest) {
                return size() > LiveGames.this.keep;
            }
        };
    }

    /** Sends every event from now on to {@code feed} too. */
    public void feedTo(Feed feed) {
        this.feed = feed;
    }

    /** Registers a game about to be played and returns the observer to play it with. */
    public synchronized GameObserver begin(Pairing pairing) {
        Live game = new Live(pairing);
        live.put(pairing.gameId(), game);
        return game;
    }

    /** The game is over and published: watchers get the record and their stream ends. */
    public void finish(Pairing pairing, GameRecord record) {
        Live game;
        synchronized (this) {
            game = live.remove(pairing.gameId());
            finished.put(pairing.gameId(), record);
        }
        feed.event(pairing.gameId(), GameEvent.newBuilder().setFinished(record).build());
        if (game != null) {
            GameEvent last = GameEvent.newBuilder().setFinished(record).build();
            synchronized (game) {
                game.done = true;
                game.record = record;
                for (Watcher watcher : game.watchers) {
                    watcher.event(last);
                    watcher.end();
                }
                game.watchers.clear();
            }
        }
    }

    /** The game was abandoned (its worker was lost): watchers' streams end without a record. */
    public void abandon(Pairing pairing) {
        Live game;
        synchronized (this) {
            game = live.remove(pairing.gameId());
        }
        feed.event(pairing.gameId(), GameEvent.getDefaultInstance());
        if (game != null) {
            synchronized (game) {
                game.done = true;
                game.watchers.forEach(Watcher::end);
                game.watchers.clear();
            }
        }
    }

    /**
     * Starts watching {@code gameId}: false when this referee neither plays nor keeps it. A finished game
     * is sent whole and the watch ends at once.
     */
    public boolean watch(String gameId, Watcher watcher) {
        Live game;
        GameRecord record;
        synchronized (this) {
            game = live.get(gameId);
            record = finished.get(gameId);
        }
        if (game == null) {
            if (record == null) {
                return false;
            }
            watcher.event(GameEvent.newBuilder().setFinished(record).build());
            watcher.end();
            return true;
        }
        synchronized (game) {
            game.events.forEach(watcher::event);
            if (!game.done) {
                game.watchers.add(watcher);
                return true;
            }
            if (game.record != null) {
                watcher.event(GameEvent.newBuilder().setFinished(game.record).build());
            }
            watcher.end();
        }
        return true;
    }

    public void unwatch(String gameId, Watcher watcher) {
        Live game;
        synchronized (this) {
            game = live.get(gameId);
        }
        if (game != null) {
            game.watchers.remove(watcher);
        }
    }

    public synchronized Optional<GameRecord> finished(String gameId) {
        return Optional.ofNullable(finished.get(gameId));
    }

    public synchronized List<LiveGame> playing() {
        List<LiveGame> games = new ArrayList<>();
        for (Live game : live.values()) {
            int plies;
            synchronized (game) {
                plies = game.plies;
            }
            games.add(LiveGame.newBuilder()
                    .setAssignment(game.assignment)
                    .setPlies(plies)
                    .setStartedUnixMs(game.startedMillis)
                    .build());
        }
        return games;
    }

    public synchronized int playingCount() {
        return live.size();
    }
}
