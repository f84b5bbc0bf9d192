package dev.taikai.scheduler.live;

import dev.taikai.proto.events.v1.LiveEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the referees play now, as the live topic tells it: each game in play with its events so far, and
 * each referee's last status. A watcher (a browser's event stream) gets everything so far when it
 * subscribes and then each event as it comes; one that cannot take an event at once loses it (counted
 * here) and is told to start again from a fresh snapshot, so a slow browser slows nobody else.
 */
public final class LiveView {
    /** A watcher's side: must not block. */
    public interface Subscriber {
        /** Takes one event; false when the subscriber's buffer is full (the event is then dropped). */
        boolean offer(LiveEvent event);

        /** The subscriber missed events: it should ask for a snapshot again. */
        void fellBehind();
    }

    /** A referee's last status and when it came ({@link System#currentTimeMillis}). */
    public record Seen(LiveEvent status, long receivedMillis) {}

    private final Map<String, List<LiveEvent>> games = new LinkedHashMap<>();
    private final Map<String, Seen> referees = new LinkedHashMap<>();
    private final Set<Subscriber> subscribers = new CopyOnWriteArraySet<>();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong events = new AtomicLong();

    /** Takes one event from the topic and passes it to every subscriber. */
    public void accept(LiveEvent event) {
        synchronized (this) {
            record(event);
        }
        events.incrementAndGet();
        for (Subscriber subscriber : subscribers) {
            if (!subscriber.offer(event)) {
                dropped.incrementAndGet();
                subscriber.fellBehind();
            }
        }
    }

    private void record(LiveEvent event) {
        if (event.hasStatus()) {
            referees.put(event.getRefereeId(), new Seen(event, System.currentTimeMillis()));
            return;
        }
        if (!event.hasGame()) {
            return;
        }
        var game = event.getGame();
        switch (game.getEventCase()) {
            case STARTED -> {
                List<LiveEvent> list = new ArrayList<>();
                list.add(event);
                games.put(event.getGameId(), list);
            }
            case MOVE -> {
                List<LiveEvent> list = games.get(event.getGameId());
                if (list != null) {
                    list.add(event);
                }
            }
            default -> games.remove(event.getGameId()); // finished, or abandoned: no longer in play
        }
    }

    /**
     * Registers {@code subscriber} and returns what it must see first: each game in play from its start,
     * and each referee's last status, in one consistent cut (nothing is sent twice or missed between).
     */
    public synchronized List<LiveEvent> subscribe(Subscriber subscriber) {
        subscribers.add(subscriber);
        return snapshot();
    }

    /** Everything so far, for a subscriber that fell behind and starts again. */
    public synchronized List<LiveEvent> snapshot() {
        List<LiveEvent> all = new ArrayList<>();
        for (Seen seen : referees.values()) {
            all.add(seen.status());
        }
        games.values().forEach(all::addAll);
        return all;
    }

    public void unsubscribe(Subscriber subscriber) {
        subscribers.remove(subscriber);
    }

    /** Each referee's last status, oldest first. */
    public synchronized List<Seen> referees() {
        return new ArrayList<>(referees.values());
    }

    public synchronized int gamesInPlay() {
        return games.size();
    }

    public int subscribers() {
        return subscribers.size();
    }

    /** Events subscribers could not take, since the start. */
    public long dropped() {
        return dropped.get();
    }

    /** Events taken from the topic since the start. */
    public long events() {
        return events.get();
    }
}
