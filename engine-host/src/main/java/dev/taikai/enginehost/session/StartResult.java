package dev.taikai.enginehost.session;

/** What starting an engine gives: a ready {@link LocalEngine}, or the {@link EngineFailure} that prevented it. */
public sealed interface StartResult permits LocalEngine, EngineFailure {}
