package dev.taikai.referee.game;

import dev.taikai.rules.Variant;

/**
 * One game to play, as the scheduler plans it: its deterministic identity (ARCHITECTURE.md, decision
 * 2), who plays which side, from where, and under which rules of time and adjudication.
 *
 * @param gameId unique in its tournament and the same every time the tournament is planned
 * @param round 1-based round
 * @param pairing 1-based index of the pairing (the two engines) in the round
 * @param gameInPairing 1-based; games 2k−1 and 2k of a pairing share an opening with colours swapped
 * @param sente the entrant playing sente, by its name in the tournament
 * @param senteMarginMillis how far past its allowance sente's move may end before it loses on time
 *     ({@link OverrunMargin}, resolved for its time control)
 * @param goteMarginMillis the same for gote
 */
public record GameAssignment(
        String gameId,
        int round,
        int pairing,
        int gameInPairing,
        Variant variant,
        String sente,
        String gote,
        Opening opening,
        TimeControl senteTimeControl,
        TimeControl goteTimeControl,
        long senteMarginMillis,
        long goteMarginMillis,
        Adjudication adjudication) {
    /** The overrun margin of {@code side}, milliseconds. */
    public long marginMillis(dev.taikai.rules.Color side) {
        return side == dev.taikai.rules.Color.SENTE ? senteMarginMillis : goteMarginMillis;
    }

    /** The number of the game pair this game belongs to within its pairing (1-based). */
    public int pair() {
        return (gameInPairing + 1) / 2;
    }
}
