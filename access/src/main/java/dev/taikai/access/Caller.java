package dev.taikai.access;

/** An authenticated caller: the name its token was issued to, and its role. */
public record Caller(String name, Role role) {}
