package dev.taikai.events;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.taikai.proto.events.v1.EngineLogEvent;
import dev.taikai.proto.events.v1.GameRecordEvent;
import dev.taikai.proto.events.v1.LiveEvent;
import dev.taikai.proto.events.v1.PairingEvent;
import dev.taikai.proto.events.v1.TournamentEvent;

/**
 * Taikai's Kafka topics and the one schema version of their messages (events.proto). Reading a value
 * checks its version: anything that is not a message of a version this build knows is a {@link Poison}.
 */
public final class Topics {
    /** Tournament states, keyed by tournament id; compacted. */
    public static final String TOURNAMENTS = "taikai.tournaments";
    /** Games to play, keyed by game id. */
    public static final String PAIRINGS = "taikai.pairings";
    /** Finished games, keyed by tournament id; kept forever. */
    public static final String GAMES = "taikai.games";
    /** Finished games' engine logs, keyed by game id; deleted after 7 days. */
    public static final String ENGINE_LOGS = "taikai.engine-logs";
    /** What referees play now, for watchers, keyed by referee id; deleted after an hour. */
    public static final String LIVE = "taikai.live";
    /** Values no consumer could read, with the reason in a header; kept for people to look at. */
    public static final String DEAD_LETTERS = "taikai.dead-letters";

    public static final int SCHEMA_VERSION = 1;

    private Topics() {}

    /** A value that is not a message this build can read: garbage, or another schema version. */
    public static final class Poison extends Exception {
        public Poison(String message) {
            super(message);
        }
    }

    public static TournamentEvent tournament(byte[] value) throws Poison {
        try {
            TournamentEvent event = TournamentEvent.parseFrom(value);
            version(event.getSchemaVersion());
            return event;
        } catch (InvalidProtocolBufferException e) {
            throw new Poison("not a TournamentEvent: " + e.getMessage());
        }
    }

    public static PairingEvent pairing(byte[] value) throws Poison {
        try {
            PairingEvent event = PairingEvent.parseFrom(value);
            version(event.getSchemaVersion());
            return event;
        } catch (InvalidProtocolBufferException e) {
            throw new Poison("not a PairingEvent: " + e.getMessage());
        }
    }

    public static GameRecordEvent game(byte[] value) throws Poison {
        try {
            GameRecordEvent event = GameRecordEvent.parseFrom(value);
            version(event.getSchemaVersion());
            return event;
        } catch (InvalidProtocolBufferException e) {
            throw new Poison("not a GameRecordEvent: " + e.getMessage());
        }
    }

    public static EngineLogEvent engineLog(byte[] value) throws Poison {
        try {
            EngineLogEvent event = EngineLogEvent.parseFrom(value);
            version(event.getSchemaVersion());
            return event;
        } catch (InvalidProtocolBufferException e) {
            throw new Poison("not an EngineLogEvent: " + e.getMessage());
        }
    }

    public static LiveEvent live(byte[] value) throws Poison {
        try {
            LiveEvent event = LiveEvent.parseFrom(value);
            version(event.getSchemaVersion());
            return event;
        } catch (InvalidProtocolBufferException e) {
            throw new Poison("not a LiveEvent: " + e.getMessage());
        }
    }

    private static void version(int version) throws Poison {
        if (version != SCHEMA_VERSION) {
            throw new Poison("schema version " + version + ", this build reads " + SCHEMA_VERSION);
        }
    }
}
