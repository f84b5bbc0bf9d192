package dev.taikai.enginehost.session;

/** The result sent to an engine with {@code gameover}, from that engine's point of view. */
public enum GameEnd {
    WIN,
    LOSE,
    DRAW
}
