package dev.taikai.cli;

import dev.taikai.cli.run.RecordsFolder;
import dev.taikai.cli.run.RunPlan;
import dev.taikai.enginehost.config.ConfigException;
import dev.taikai.proto.common.v1.GameRecord;
import dev.taikai.proto.tournament.v1.TournamentState;
import dev.taikai.referee.messages.GameMessages;
import dev.taikai.tournament.Format;
import dev.taikai.tournament.league.League;
import dev.taikai.tournament.messages.TournamentMessages;
import dev.taikai.tournament.run.TournamentRun;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;

/**
 * A cluster tournament written to the records folder of {@code taikai run}: the run is rebuilt from the
 * final state as the scheduler rebuilds it (its stop, games handed out, league changes), and the records
 * are counted into it in the scheduler's order ({@link RecordsFolder}).
 */
final class ClusterRecords {
    private ClusterRecords() {}

    /** Refuses a tournament that is not the one {@code plan} describes (its file changed, or another file). */
    static void checkSame(RunPlan plan, TournamentState state) throws ConfigException {
        // how many games run at once and whether engine logs are kept do not change the tournament
        var described = specMessage(plan).toBuilder()
                .clearConcurrency()
                .clearEngineLogs()
                .build();
        var played =
                state.getSpec().toBuilder().clearConcurrency().clearEngineLogs().build();
        if (!described.equals(played)) {
            throw new ConfigException("tournament " + state.getTournamentId() + " ('" + played.getName()
                    + "') is not the tournament this file describes");
        }
    }

    /** The tournament a plan describes, as the scheduler takes it: with its league tuning and engine logs. */
    static dev.taikai.proto.tournament.v1.TournamentSpec specMessage(RunPlan plan) {
        var message = TournamentMessages.toProto(plan.spec()).toBuilder().setEngineLogs(plan.engineLogs());
        if (plan.spec().format() == Format.LEAGUE) {
            League.Settings league = plan.leagueSettings();
            message.setLeague(dev.taikai.proto.tournament.v1.LeagueSettings.newBuilder()
                    .setRematchPenalty(league.rematchPenalty())
                    .setRematchMemoryRounds(league.rematchMemory())
                    .setHalfLifeRounds(league.halfLifeRounds()));
        }
        return message.build();
    }

    /** Writes the folder and prints the report; returns a line for each record the local count did not take. */
    static List<String> write(
            RunPlan plan,
            TournamentState state,
            List<GameRecord> records,
            RecordsFolder.EngineLogSource logs,
            PrintWriter out)
            throws IOException, ConfigException {
        var message = state.getSpec();
        boolean league = plan.spec().format() == Format.LEAGUE;
        TournamentRun run = new TournamentRun(
                plan.spec(), league ? TournamentMessages.leagueSettings(message) : League.Settings.DEFAULT);
        run.restoreStop(TournamentMessages.stop(state.getStatus(), state.getStatusDetail()));
        run.handedOutUpTo(state.getPublishedGames());
        if (league) {
            var common = TournamentMessages.commonTimeControl(message);
            run.restoreLeague(
                    state.getLeagueChangesList().stream()
                            .map(change -> TournamentMessages.leagueChange(change, common))
                            .toList(),
                    state.getLeagueRounds());
        }
        return RecordsFolder.write(
                plan,
                run,
                state.getTournamentId(),
                records.stream().map(r -> GameMessages.record(r).record()).toList(),
                logs,
                out);
    }
}
