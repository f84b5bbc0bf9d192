package dev.taikai.tournament.run;

import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.GameRecord;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.Schedule;
import dev.taikai.tournament.TournamentSpec;
import java.util.List;

/** Round-robin, gauntlet and match: the whole {@link Schedule#plan} at once. */
final class FixedPlan implements Pairer {
    private final TournamentSpec spec;
    private boolean paired;
    private int counted;
    private int size = -1;

    FixedPlan(TournamentSpec spec) {
        this.spec = spec;
    }

    @Override
    public List<GameAssignment> next() {
        if (paired) {
            return List.of();
        }
        paired = true;
        List<GameAssignment> plan = Schedule.plan(spec);
        size = plan.size();
        return plan;
    }

    @Override
    public void counted(GameAssignment game, GameRecord record) {
        counted++;
    }

    @Override
    public boolean complete() {
        return paired && counted == size;
    }

    @Override
    public String finishedDetail() {
        return "all " + size + " games played";
    }

    @Override
    public Entrant entrant(String name) {
        return spec.entrant(name);
    }
}
