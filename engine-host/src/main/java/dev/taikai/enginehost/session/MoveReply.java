package dev.taikai.enginehost.session;

/** What a search ended with: a {@link BestMove} (a move, {@code resign} or {@code win}) or an {@link EngineFailure}. */
public sealed interface MoveReply permits BestMove, EngineFailure {}
