package dev.taikai.cli.run;

import dev.taikai.tournament.TournamentSpec;

/** What a tournament plans, in words, for the line a run or a submission begins with. */
public final class PlanText {
    private PlanText() {}

    /**
     * "12 games planned" for the formats paired at once; a league's or a Swiss's rounds ("7 rounds", "a
     * league without an end"), "single elimination" for a knockout: those pair round by round, so the
     * games paired so far are not the plan.
     *
     * @param pairedGames the games paired so far
     */
    public static String of(TournamentSpec spec, long pairedGames) {
        return switch (spec.format()) {
            case LEAGUE -> spec.rounds() == 0 ? "a league without an end" : Plural.of(spec.rounds(), "round", "rounds");
            case SWISS -> Plural.of(spec.rounds(), "round", "rounds");
            case KNOCKOUT -> "single elimination";
            default -> Plural.games(pairedGames) + " planned";
        };
    }
}
