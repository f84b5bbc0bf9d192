package dev.taikai.referee.game;

import dev.taikai.enginehost.session.PositionCommand;
import dev.taikai.rules.Game;
import dev.taikai.rules.Notation;
import dev.taikai.rules.Usi;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A game as {@code position sfen <start> moves ...} in each engine's notation. Every {@code go} carries
 * the whole game, so the moves are formatted once each and kept, not formatted anew for every move.
 */
final class Transcript {
    private final Game game;
    private final Map<Notation, String> starts = new EnumMap<>(Notation.class);
    private final Map<Notation, List<String>> moves = new EnumMap<>(Notation.class);

    Transcript(Game game) {
        this.game = game;
    }

    /** The game so far in {@code notation}. */
    PositionCommand positionFor(Notation notation) {
        String start = starts.computeIfAbsent(notation, n -> game.start().toSfen(n));
        List<String> texts = moves.computeIfAbsent(notation, n -> new ArrayList<>());
        int[] played = game.moves();
        for (int i = texts.size(); i < played.length; i++) {
            texts.add(Usi.format(played[i], game.variant(), notation));
        }
        return new PositionCommand(start, texts);
    }
}
