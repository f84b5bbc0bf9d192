package dev.taikai.cli;

import dev.taikai.cli.run.LocalRunner;
import dev.taikai.cli.run.NewFolder;
import dev.taikai.cli.run.RunPlan;
import dev.taikai.enginehost.catalog.BuiltinCatalog;
import dev.taikai.enginehost.catalog.Catalog;
import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.referee.game.Adjudication;
import dev.taikai.referee.game.TimeControl;
import dev.taikai.rules.Variant;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.Format;
import dev.taikai.tournament.TournamentSpec;
import java.io.File;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = {
            "A quick round robin in both variants between the built-in engine's levels and, when Debian's"
                    + " fairy-stockfish is installed, Fairy-Stockfish at two skill levels; it ends with the standings"
                    + " and the records on disk (about a minute)."
        })
final class DemoCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            defaultValue = "results",
            description = "where the records go (default: ${DEFAULT-VALUE})")
    private Path base;

    @Option(
            names = "--time-control",
            paramLabel = "TC",
            defaultValue = "byoyomi 0.2",
            description = "time control of every engine (default: ${DEFAULT-VALUE})")
    private String timeControl;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        TimeControl tc;
        try {
            tc = TimeControl.parse(timeControl);
        } catch (IllegalArgumentException e) {
            throw new ExitCodes.UsageException(e.getMessage());
        }
        Catalog catalog = BuiltinCatalog.get();
        List<Entrant> entrants = new ArrayList<>();
        for (int level : new int[] {1, 2, 4}) {
            entrants.add(new Entrant("taikai-" + level, "taikai-" + level, tc));
        }
        if (fairyStockfishInstalled()) {
            EngineSpec fsf = catalog.engine("fairy-stockfish").orElseThrow();
            List<EngineSpec> levels = List.of(
                    withId(fsf.withOptions(Map.of("Skill Level", "0")), "fsf-skill-0"),
                    withId(fsf.withOptions(Map.of("Skill Level", "4")), "fsf-skill-4"));
            catalog = catalog.with(Catalog.of(levels));
            levels.forEach(e -> entrants.add(new Entrant(e.id(), e.id(), tc)));
        } else {
            out.println(
                    "demo: Debian's fairy-stockfish is not installed (apt-get install fairy-stockfish); the built-in"
                            + " levels play alone");
        }
        Path runDir = NewFolder.of(base, "demo");
        int exit = 0;
        for (Variant variant : Variant.all()) {
            TournamentSpec tournament = new TournamentSpec(
                    "demo-" + variant.name(),
                    variant,
                    Format.ROUND_ROBIN,
                    entrants,
                    1,
                    1,
                    2,
                    List.of(),
                    false,
                    dev.taikai.referee.game.OverrunMargin.BY_RULE,
                    Adjudication.DEFAULT.withMoveLimit(200),
                    RunPlan.defaultConcurrency(),
                    1,
                    null);
            RunPlan plan = new RunPlan(tournament, catalog, runDir.resolve(variant.name()), false);
            exit = Math.max(
                    exit,
                    RunCommand.exitCode(
                            new LocalRunner(plan, out, spec.commandLine().getErr()).run()));
            if (exit != 0) {
                break;
            }
        }
        out.printf("%nDemo records: %s%n", runDir);
        return exit;
    }

    private static EngineSpec withId(EngineSpec spec, String id) {
        return spec.withId(id);
    }

    private static boolean fairyStockfishInstalled() {
        String path = System.getenv().getOrDefault("PATH", "") + File.pathSeparator + "/usr/games";
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "fairy-stockfish"))) {
                return true;
            }
        }
        return false;
    }
}
