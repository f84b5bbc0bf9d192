package dev.taikai.cli;

import dev.taikai.cli.run.CutechessArguments;
import dev.taikai.cli.run.Invocation;
import dev.taikai.cli.run.Launcher;
import dev.taikai.cli.run.LocalRunner;
import dev.taikai.cli.run.RunPlan;
import dev.taikai.cli.run.TournamentFile;
import dev.taikai.enginehost.config.ConfigException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

@Command(
        name = "run",
        description = {
            "Runs a tournament on this machine: './taikai run tournament.yaml', cutechess-style flags, or a file"
                    + " and flags (the flags replace what the file says; -each sets time, timemargin and option.* for"
                    + " every engine of the file).",
            "",
            "Flags: -variant V -engine conf=ID|name=N cmd=C [arg= dir= option.X= env.X= quirk= notation="
                    + " variant-option= memory-mb= processes=] [tc= byoyomi= st= nodes= depth=|plies= timemargin=MS]"
                    + " [proto=usi|xboard] ... -each <engine settings for all> -tournament round-robin|gauntlet|match|league|swiss|knockout"
                    + " -seeds N -rounds N -games N -repeat -concurrency N -openings file=F order=sequential|random start=N plies=N"
                    + " -sprt elo0= elo1= alpha= beta= -resign movecount= score= -draw movenumber= movecount= score="
                    + " -maxmoves N -timemargin MS -srand N -recover -restart on|off -event NAME -out DIR -catalog FILE"
                    + " -ratinginterval N -log (or -debug)",
            "cutechess-cli's -pgnout, -epdout, -noswap, -reverse, -wait, -site, -tb and -tbpieces are refused with what"
                    + " to use here.",
            "",
            "Overrun margin (how far past its time a move may end before it loses on time): by default a tenth of"
                    + " a fixed move time or byoyomi, at least 100 ms and at most nine tenths of it; for sudden death"
                    + " and Fischer 100 ms, or a tenth of the increment when that is more;"
                    + " -timemargin for all engines, timemargin= for one.",
            "",
            "Every finished game is recorded at once (results.json, games/*.kif, all-games.kif, all-games.sfen, taikai.log, report.html) in the records folder:"
                    + " -out DIR (or the file's output:), else a new folder results/<name>-<date>-<time> for every run."
                    + " './taikai run --resume DIR' resumes an interrupted run, as does the same command with -out DIR. Exit codes: 0 finished (or SPRT concluded),"
                    + " 1 stopped by an engine that cannot be used or records that cannot be written, 2 bad tournament, 130 interrupted (143 by SIGTERM).",
            "-log keeps every line to and from the engines, a compressed file a game (logs/<id>.log.gz); a game in"
                    + " which an engine failed keeps there what it wrote to its standard error, in any case.",
            "Progress: a line as each game starts and as it ends (an SPRT run's with its LLR and bounds);"
                    + " -ratinginterval N shows the standings every N games.",
            "--verbose adds the run's own figures (manager CPU per move) to the report.",
            "An option an engine does not list (a misspelling, usually) is not sent, with a warning at its start;"
                    + " --strict stops the run instead (exit 1).",
            "Tournament file keys and defaults: docs/tournaments.md."
        })
final class RunCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Unmatched
    private List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        if (args.isEmpty() || args.contains("--help") || args.contains("-h")) {
            spec.commandLine().usage(spec.commandLine().getOut());
            return args.isEmpty() ? ExitCodes.USAGE : 0;
        }
        if (args.equals(List.of("-V")) || args.equals(List.of("--version"))) {
            spec.commandLine().getOut().println(new Version().getVersion()[0]);
            return 0;
        }
        boolean verbose = args.contains("--verbose");
        boolean strict = args.contains("--strict");
        List<String> given = withoutSwitches(args);
        if (given.isEmpty()) {
            throw new ExitCodes.UsageException(
                    "run needs a tournament file or flags (" + Launcher.command() + " run --help)");
        }
        if (given.indexOf("--resume") > 0) { // it was taken for an unknown flag
            throw new ExitCodes.UsageException("--resume comes first and alone: " + Launcher.command()
                    + " run --resume DIR (the run's own settings are kept)");
        }
        RunPlan plan;
        try {
            Path resumed = null;
            if (given.get(0).equals("--resume")) {
                if (given.size() != 2 || given.get(1).startsWith("-")) {
                    throw new ConfigException("--resume takes one records folder and nothing else: "
                            + Launcher.command() + " run --resume DIR");
                }
                resumed = Path.of(given.get(1));
                List<String> kept = Invocation.of(resumed).args();
                // a run started with --strict or --verbose is resumed so
                verbose |= kept.contains("--verbose");
                strict |= kept.contains("--strict");
                given = withoutSwitches(kept);
            }
            plan = given.get(0).startsWith("-")
                    ? CutechessArguments.parse(given)
                    : CutechessArguments.over(
                            TournamentFile.read(Path.of(given.get(0))), given.subList(1, given.size()));
            if (resumed != null) {
                plan = plan.withOutput(resumed);
            }
        } catch (ConfigException e) {
            throw new ExitCodes.UsageException(e.getMessage());
        }
        try {
            return exitCode(new LocalRunner(
                            plan,
                            spec.commandLine().getOut(),
                            spec.commandLine().getErr())
                    .recording(Invocation.here(recorded(given, verbose, strict)))
                    .verbose(verbose)
                    .strict(strict)
                    .run());
        } catch (ConfigException e) {
            throw new ExitCodes.UsageException(e.getMessage());
        }
    }

    private static List<String> withoutSwitches(List<String> args) {
        return args.stream()
                .filter(arg -> !arg.equals("--verbose") && !arg.equals("--strict"))
                .toList();
    }

    /** The arguments kept for --resume: {@code given} and the switches, which the resumed run takes too. */
    private static List<String> recorded(List<String> given, boolean verbose, boolean strict) {
        List<String> recorded = new ArrayList<>(given);
        if (verbose) {
            recorded.add("--verbose");
        }
        if (strict) {
            recorded.add("--strict");
        }
        return recorded;
    }

    static int exitCode(LocalRunner.Ending ending) {
        return switch (ending) {
            case FINISHED, SPRT_CONCLUDED -> 0;
            case ABORTED -> ExitCodes.FAILURE;
            case INTERRUPTED -> 130;
        };
    }
}
