/**
 * Tournaments as plain Java: formats, entrants, opening suites, the deterministic pairing plan and the
 * standings projection ({@code stats} holds Elo, the rating fit, pentanomial statistics and the SPRT).
 * The local runner and the scheduler service both build on it.
 */
package dev.taikai.tournament;
