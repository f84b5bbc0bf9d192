package dev.taikai.referee.game;

import dev.taikai.enginehost.catalog.EngineText;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A game as a cluster hands it out: the assignment, the tournament it belongs to, and the catalog
 * engine each side runs (ARCHITECTURE.md, decision 5: an id and options, never a command line).
 *
 * @param planIndex the game's place in its tournament's plan, 0-based
 * @param engineLogs whether the game's engine log is kept (every line to and from both engines)
 */
public record Pairing(
        String tournamentId, GameAssignment game, Engine sente, Engine gote, int planIndex, boolean engineLogs) {
    /** A pairing whose engine log is not kept. */
    public Pairing(String tournamentId, GameAssignment game, Engine sente, Engine gote, int planIndex) {
        this(tournamentId, game, sente, gote, planIndex, false);
    }

    /** A catalog engine with USI options set over the catalog's, checked as {@link EngineText} checks them. */
    public record Engine(String engineId, Map<String, String> options) {
        public Engine {
            EngineText.engineId("engine_id", engineId);
            options = Collections.unmodifiableMap(new LinkedHashMap<>(EngineText.options("options", options)));
        }
    }

    /** Unique across tournaments: {@code <tournament id>/<game id>}. */
    public String gameId() {
        return globalId(tournamentId, game.gameId());
    }

    public static String globalId(String tournamentId, String localId) {
        return tournamentId + "/" + localId;
    }
}
