package dev.taikai.enginehost.usi;

/** What starting an engine gives: a ready {@link UsiEngine}, or the {@link EngineFailure} that prevented it. */
public sealed interface StartResult permits UsiEngine, EngineFailure {}
