package dev.taikai.referee.game;

import dev.taikai.enginehost.session.Score;
import dev.taikai.rules.Color;
import dev.taikai.rules.Outcome;
import dev.taikai.rules.Result;
import dev.taikai.rules.Termination;
import java.util.Optional;

/** Applies an {@link Adjudication} move by move. Owned by one game. */
final class Adjudicator {
    private final Adjudication rules;
    /** Per colour: consecutive moves scoring at most −resign, at least +resign, and within ±draw. */
    private final int[] losing = new int[2];

    private final int[] winning = new int[2];
    private final int[] level = new int[2];

    Adjudicator(Adjudication rules) {
        this.rules = rules;
    }

    /** After {@code mover} played ply {@code plies} reporting {@code score}: the adjudicated outcome, if any. */
    Optional<Outcome> afterMove(int plies, Color mover, Score score) {
        int i = mover.index();
        double value = value(score);
        losing[i] = rules.resignScore() > 0 && value <= -rules.resignScore() ? losing[i] + 1 : 0;
        winning[i] = rules.resignScore() > 0 && value >= rules.resignScore() ? winning[i] + 1 : 0;
        level[i] = rules.drawScore() > 0 && Math.abs(value) <= rules.drawScore() ? level[i] + 1 : 0;
        int j = 1 - i;
        if (rules.resignMoves() > 0) {
            for (int side : new int[] {i, j}) {
                if (losing[side] >= rules.resignMoves() && winning[1 - side] >= rules.resignMoves()) {
                    Color loser = Color.of(side);
                    return Optional.of(new Outcome(
                            Result.lossFor(loser),
                            Termination.ADJUDICATION,
                            "resign adjudication: "
                                    + loser.displayName() + " scored at most -" + rules.resignScore() + " and "
                                    + loser.opposite().displayName() + " at least " + rules.resignScore() + " for "
                                    + rules.resignMoves() + " moves each"));
                }
            }
        }
        if (rules.drawMoves() > 0
                && plies >= rules.drawAfterPlies()
                && level[i] >= rules.drawMoves()
                && level[j] >= rules.drawMoves()) {
            return Optional.of(new Outcome(
                    Result.DRAW,
                    Termination.ADJUDICATION,
                    "draw adjudication: both engines" + " scored within " + rules.drawScore() + " for "
                            + rules.drawMoves() + " moves each"));
        }
        if (rules.moveLimitPlies() > 0 && plies >= rules.moveLimitPlies()) {
            return Optional.of(new Outcome(
                    Result.DRAW,
                    Termination.ADJUDICATION,
                    "move limit: " + rules.moveLimitPlies() + (rules.moveLimitPlies() == 1 ? " ply" : " plies")));
        }
        return Optional.empty();
    }

    /** A score as a number; mates beyond every threshold; NaN without a usable score (resets the counts). */
    private static double value(Score score) {
        if (score == null || (score.mate() && score.value() == 0) || score.bound() != Score.Bound.EXACT) {
            return Double.NaN;
        }
        if (score.mate()) {
            return score.value() > 0 ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
        }
        return score.value();
    }
}
