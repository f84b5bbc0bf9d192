package dev.taikai.cli;

import dev.taikai.access.Role;
import dev.taikai.cli.cluster.LocalCluster;
import dev.taikai.cli.cluster.SchedulerClient;
import dev.taikai.cli.run.Launcher;
import dev.taikai.cli.run.PlanText;
import dev.taikai.cli.run.Plural;
import dev.taikai.cli.run.RecordsFolder;
import dev.taikai.cli.run.RunPlan;
import dev.taikai.cli.run.TournamentFile;
import dev.taikai.deploy.StartFailure;
import dev.taikai.enginehost.catalog.BuiltinCatalog;
import dev.taikai.enginehost.catalog.Catalog;
import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.config.ConfigException;
import dev.taikai.enginehost.host.HostLimits;
import dev.taikai.proto.common.v1.GameRecord;
import dev.taikai.proto.scheduler.v1.GetGameRecordsResponse;
import dev.taikai.proto.tournament.v1.Status;
import dev.taikai.proto.tournament.v1.TournamentState;
import dev.taikai.referee.messages.GameMessages;
import dev.taikai.tournament.Entrant;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "cluster",
        mixinStandardHelpOptions = true,
        description = {
            "Runs Taikai's distributed services on this machine: a Kafka broker (KRaft), the scheduler, engine"
                    + " workers and referees as separate processes.",
            "",
            "  taikai cluster up                  start them (logs and state in --dir)",
            "  taikai cluster submit FILE         run a tournament file through them, print the standings and"
                    + " write its records",
            "  taikai cluster fetch ID FILE       follow a submitted tournament and write its records",
            "  taikai cluster status              what runs where",
            "  taikai cluster down                stop everything 'up' started"
        },
        subcommands = {
            ClusterCommand.Up.class,
            ClusterCommand.Submit.class,
            ClusterCommand.Fetch.class,
            ClusterCommand.StatusCommand.class,
            ClusterCommand.Down.class
        })
final class ClusterCommand implements java.util.concurrent.Callable<Integer> {
    @Spec
    private CommandSpec spec;

    /** No subcommand given: the usage on standard error, and the exit code of bad usage. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    /** The cluster directory option every subcommand shares. */
    static class Directory {
        @Option(
                names = "--dir",
                paramLabel = "DIR",
                description = "Where the cluster keeps its state, logs and Kafka data (default: .taikai-cluster).")
        Path dir = Path.of(".taikai-cluster");

        LocalCluster recorded() throws IOException {
            try {
                return LocalCluster.recorded(dir)
                        .orElseThrow(() -> new ExitCodes.UsageException("no cluster recorded in " + dir
                                + "; start one with '" + Launcher.command() + " cluster up" + dirOption(dir) + "'"));
            } catch (LocalCluster.UnreadableRecord e) {
                throw new ExitCodes.WorkFailed(
                        e.getMessage() + "; '" + Launcher.command() + " cluster down" + dirOption(dir)
                                + "' finds the processes it started by their command lines and stops them",
                        e);
            }
        }
    }

    /**
     * The scheduler's client for the operator, its connection opened on another thread while the calling one
     * reads the tournament file: with TLS, loading the JDK's TLS and the handshake take a fresh JVM a few
     * hundred milliseconds, which then no longer delay the first request. A failure to connect is left for
     * that request to report.
     */
    static Future<SchedulerClient> connecting(LocalCluster cluster) {
        FutureTask<SchedulerClient> task = new FutureTask<>(() -> {
            SchedulerClient client = cluster.schedulerClient(Role.ADMIN);
            try {
                client.connect();
            } catch (IOException e) {
                // the first request says what is wrong
            }
            return client;
        });
        Thread thread = new Thread(task, "taikai-connect");
        thread.setDaemon(true);
        thread.start();
        return task;
    }

    static SchedulerClient connected(Future<SchedulerClient> client) throws IOException {
        try {
            return client.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while connecting to the scheduler");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException(e.getCause());
        }
    }

    /** The records folder option of the commands that write one. */
    static class RecordsOutput extends Directory {
        @Option(
                names = "--out",
                paramLabel = "DIR",
                description =
                        "The records folder (default: the file's 'output:', else a new folder results/<name>-<date>-<time>).")
        Path out;
    }

    static Path projectRoot() {
        String home = System.getProperty("taikai.home");
        return home != null ? Path.of(home) : Path.of("").toAbsolutePath();
    }

    @Command(
            name = "up",
            mixinStandardHelpOptions = true,
            description =
                    "Starts a Kafka broker, the scheduler, engine workers and referees; returns once all are ready.")
    static final class Up extends Directory implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Option(names = "--workers", description = "Engine workers (default: ${DEFAULT-VALUE}).")
        int workers = 2;

        @Option(names = "--referees", description = "Referee replicas (default: ${DEFAULT-VALUE}).")
        int referees = 1;

        @Option(names = "--slots", description = "Engine slots per worker (default: ${DEFAULT-VALUE}).")
        int slots = 2;

        @Option(names = "--games", description = "Games in play at once per referee (default: ${DEFAULT-VALUE}).")
        int games = 2;

        @Option(
                names = "--catalog",
                paramLabel = "FILE",
                description = "An engine catalog the workers add to the built-in engines.")
        Path catalog;

        @Option(
                names = "--plaintext",
                description = "Run without TLS, for debugging: tokens and records cross loopback unencrypted. By"
                        + " default every listener speaks TLS with certificates of a CA made for this cluster"
                        + " (docs/security.md).")
        boolean plaintext;

        @Override
        public Integer call() throws Exception {
            if (catalog != null) {
                try {
                    Catalog.read(catalog);
                } catch (ConfigException e) {
                    throw new ExitCodes.UsageException(e.getMessage());
                }
            }
            if (LocalCluster.isRecorded(dir)) {
                throw new ExitCodes.UsageException("a cluster is already recorded in " + dir + "; stop it first with '"
                        + Launcher.command() + " cluster down" + dirOption(dir) + "'");
            }
            List<ProcessHandle> unrecorded = LocalCluster.startedFrom(dir);
            if (!unrecorded.isEmpty()) { // a second up while one starts, or what a killed up left behind
                throw new ExitCodes.UsageException("processes of a cluster in " + dir + " run without a record (pids "
                        + pids(unrecorded)
                        + "): another 'cluster up' there is still starting, or one was killed before it recorded"
                        + " them; stop them first with '" + Launcher.command() + " cluster down" + dirOption(dir)
                        + "'");
            }
            PrintWriter out = spec.commandLine().getOut();
            for (String tooLow : HostLimits.ofThisProcess().shortfalls(slots, workers * slots, referees * games)) {
                spec.commandLine().getErr().println("warning: " + tooLow);
            }
            LocalCluster cluster;
            try {
                cluster = LocalCluster.start(
                        projectRoot(),
                        dir,
                        new LocalCluster.Shape(
                                workers,
                                referees,
                                slots,
                                games,
                                catalog == null
                                        ? null
                                        : catalog.toAbsolutePath().toString(),
                                plaintext),
                        Duration.ofSeconds(120));
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw new ExitCodes.UsageException(e.getMessage());
            } catch (StartFailure e) {
                throw new ExitCodes.WorkFailed(e.getMessage() + " (everything it had started is stopped)", e);
            }
            if (catalog != null) {
                Files.writeString(
                        dir.resolve("catalog.path"), catalog.toAbsolutePath().toString());
            }
            describe(out, cluster);
            out.println(hint(dir));
            return 0;
        }
    }

    /** The --dir option as a user types it for {@code dir}: nothing for the default directory. */
    private static String dirOption(Path dir) {
        return dir.normalize().equals(Path.of(".taikai-cluster")) ? "" : " --dir " + dir;
    }

    /** The commands that use the cluster just started, with its directory when it is not the default. */
    static String hint(Path dir) {
        String where = dirOption(dir);
        String taikai = Launcher.command();
        return "Submit a tournament with: " + taikai + " cluster submit" + where + " <tournament file>; stop with: "
                + taikai + " cluster down" + where;
    }

    static void describe(PrintWriter out, LocalCluster cluster) {
        out.printf("Cluster in %s (Kafka %s):%n", cluster.directory(), cluster.bootstrapServers());
        for (LocalCluster.Member m : cluster.members()) {
            boolean alive = m.running();
            out.printf(
                    Locale.ROOT,
                    "  %-11s pid %-7d %s%s%n",
                    m.name(),
                    m.pid(),
                    m.role().equals("kafka")
                            ? "kafka " + cluster.bootstrapServers()
                            : "grpc " + m.grpc() + "  http " + m.http(),
                    alive ? "" : "  (not running)");
        }
        out.printf(
                "Access tokens (docs/access.md): %s/<admin|referee|worker|viewer>.token%n",
                cluster.directory().resolve("access"));
        cluster.certificates()
                .ifPresentOrElse(
                        c -> out.printf(
                                "TLS on every listener (docs/security.md); the cluster's CA: %s%n", c.caCertificate()),
                        () -> out.println("Plaintext: no TLS on any listener (--plaintext)"));
        out.flush();
    }

    @Command(
            name = "submit",
            mixinStandardHelpOptions = true,
            description = {
                "Runs a tournament file through the cluster: prints each game as it is counted, then the standings,"
                        + " and writes the records folder of 'taikai run' (results.json, games/*.kif, all-games.kif, all-games.sfen, taikai.log, report.html;"
                        + " logs/*.log.gz with 'engine-logs: true', and for a game whose engine failed) to the file's output.",
                "Engines are named by catalog id (no command lines travel to the workers). Exit codes: 0 finished or"
                        + " SPRT concluded, 1 cancelled or failed, 2 bad tournament file or output, 3 the scheduler was lost"
                        + " while following (the tournament goes on; the message says how to fetch it)."
            })
    static final class Submit extends RecordsOutput implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Parameters(paramLabel = "FILE", description = "A tournament file (docs/tournaments.md).")
        Path file;

        @Option(
                names = "--detach",
                description = "Return once the tournament is accepted, printing its id and the 'cluster fetch'"
                        + " command that follows it and writes its records later.")
        boolean detach;

        @Option(
                names = "--concurrency",
                paramLabel = "N",
                description = "Games of this tournament in play at once across the cluster (default: the scheduler's,"
                        + " 16; the file's 'concurrency' is for local runs). The referees' capacity bounds it too.")
        int concurrency;

        @Override
        public Integer call() throws Exception {
            if (concurrency < 0) {
                throw new ExitCodes.UsageException(
                        "--concurrency is a number of games at once (0 or none: the scheduler's default), not "
                                + concurrency);
            }
            LocalCluster cluster = recorded();
            Future<SchedulerClient> connecting = connecting(cluster);
            RunPlan plan = plan(file, out);
            Set<String> known = workerEngines();
            for (Entrant entrant : plan.spec().entrants()) {
                if (!known.contains(entrant.engineId())) {
                    throw new ExitCodes.UsageException("engine '" + entrant.engineId()
                            + "' is not in the workers' catalog ("
                            + String.join(", ", known.stream().sorted().toList())
                            + "); the cluster runs engines by catalog id only: start it with"
                            + " 'taikai cluster up --catalog FILE' and name the engine with 'engine: ID'");
                }
            }
            boolean folderExisted = Files.exists(plan.output());
            try {
                RecordsFolder.checkFree(plan, null);
            } catch (ConfigException e) {
                throw new ExitCodes.UsageException(e.getMessage());
            }
            PrintWriter err = spec.commandLine().getErr();
            SchedulerClient scheduler = connected(connecting);
            TournamentState state;
            try {
                state = scheduler.create(ClusterRecords.specMessage(plan).toBuilder()
                        .setConcurrency(concurrency)
                        .build());
            } catch (SchedulerClient.Refused e) {
                if (e.status() == 400) {
                    throw new ExitCodes.UsageException(e.getMessage());
                }
                throw e;
            } catch (SchedulerClient.Unreachable e) {
                if (!folderExisted) { // no tournament: the folder made for its records goes again, when empty
                    try {
                        Files.deleteIfExists(plan.output());
                    } catch (IOException notEmpty) {
                        // something else was put there meanwhile: left as it is
                    }
                }
                throw e;
            }
            String id = state.getTournamentId();
            err.printf(
                    "%s: tournament %s accepted by the scheduler, %s%n",
                    plan.spec().name(), id, PlanText.of(plan.spec(), state.getPlannedGames()));
            err.flush();
            List<String> waiting = waitingFor(cluster, dir);
            waiting.forEach(warning -> err.println("warning: " + warning));
            String refetch = fetchCommand(dir, id, file, plan.output());
            if (detach) {
                spec.commandLine().getOut().println(id);
                err.println("Follow it and write its records with: " + refetch);
                err.flush();
                return 0;
            }
            return follow(
                    cluster,
                    dir,
                    waiting,
                    scheduler,
                    plan,
                    state,
                    refetch,
                    spec.commandLine().getOut(),
                    err);
        }

        /** The engines the cluster's workers know: the built-in ones and those of its --catalog file. */
        private Set<String> workerEngines() throws IOException, ConfigException {
            Set<String> ids = new HashSet<>();
            BuiltinCatalog.get().engines().stream().map(EngineSpec::id).forEach(ids::add);
            Path extra = dir.resolve("catalog.path");
            if (Files.exists(extra)) {
                Catalog.read(Path.of(Files.readString(extra).trim())).engines().stream()
                        .map(EngineSpec::id)
                        .forEach(ids::add);
            }
            return ids;
        }
    }

    @Command(
            name = "fetch",
            mixinStandardHelpOptions = true,
            description = {
                "Follows a tournament the cluster plays (or has played) to its end, as 'submit' does, and writes its"
                        + " records folder; the FILE is the tournament file it was submitted from.",
                "Exit codes: 0 finished or SPRT concluded, 1 cancelled or failed, 2 unknown tournament, a file that"
                        + " describes another tournament, or an output that holds another run, 3 the scheduler was lost while"
                        + " following (the tournament goes on; the message says how to fetch it)."
            })
    static final class Fetch extends RecordsOutput implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Parameters(index = "0", paramLabel = "ID", description = "The tournament id 'submit' printed.")
        String id;

        @Parameters(index = "1", paramLabel = "FILE", description = "The tournament file it was submitted from.")
        Path file;

        @Override
        public Integer call() throws Exception {
            if (id.isEmpty() || id.equals(".") || id.equals("..")) {
                // not a path segment: asked for, it would name the list of tournaments or its parent
                throw new ExitCodes.UsageException("the cluster has no tournament '" + id + "'");
            }
            LocalCluster cluster = recorded();
            Future<SchedulerClient> connecting = connecting(cluster);
            RunPlan plan = plan(file, out);
            SchedulerClient scheduler = connected(connecting);
            TournamentState state;
            try {
                state = scheduler.state(id);
                ClusterRecords.checkSame(plan, state);
                RecordsFolder.checkFree(plan, id);
            } catch (SchedulerClient.Refused e) {
                throw new ExitCodes.UsageException(
                        e.status() == 404 ? "the cluster has no tournament " + id : e.getMessage());
            } catch (ConfigException e) {
                throw new ExitCodes.UsageException(e.getMessage());
            }
            // what it waits for, as 'submit' says it
            List<String> waiting = state.getStatus() == Status.STATUS_RUNNING ? waitingFor(cluster, dir) : List.of();
            waiting.forEach(warning -> spec.commandLine().getErr().println("warning: " + warning));
            return follow(
                    cluster,
                    dir,
                    waiting,
                    scheduler,
                    plan,
                    state,
                    fetchCommand(dir, id, file, plan.output()),
                    spec.commandLine().getOut(),
                    spec.commandLine().getErr());
        }
    }

    /** The file's plan, its output replaced by {@code out} when given. */
    private static RunPlan plan(Path file, Path out) throws IOException {
        try {
            RunPlan plan = TournamentFile.read(file);
            return out == null ? plan : plan.withOutput(out);
        } catch (ConfigException e) {
            throw new ExitCodes.UsageException(e.getMessage());
        }
    }

    /**
     * What a tournament of the cluster waits for, one line each: its Kafka broker (nothing is paired or
     * counted without it), a referee, a worker (no game is played without one of each). Empty when they run.
     * The members as recorded now: one started again since {@code cluster} was read has a new process.
     */
    private static List<String> waitingFor(LocalCluster cluster, Path dir) {
        String status =
                " ('" + Launcher.command() + " cluster status" + dirOption(dir) + "'): the tournament waits until ";
        List<LocalCluster.Member> members;
        try {
            members = LocalCluster.recorded(dir).orElse(cluster).members();
        } catch (IOException | RuntimeException e) { // a record being written this moment: the one read before
            members = cluster.members();
        }
        List<String> lines = new ArrayList<>();
        for (String role : List.of("kafka", "referee", "worker")) {
            if (members.stream().filter(m -> m.role().equals(role)).noneMatch(LocalCluster.Member::running)) {
                lines.add(
                        role.equals("kafka")
                                ? "the cluster's Kafka broker is not running" + status + "it runs again"
                                : "no " + role + " of the cluster runs" + status + "one does");
            }
        }
        return lines;
    }

    /** The command that follows tournament {@code id} later, as the user would type it. */
    static String fetchCommand(Path dir, String id, Path file, Path out) {
        return Launcher.command() + " cluster fetch" + dirOption(dir) + (out == null ? "" : " --out " + out) + " " + id
                + " " + file;
    }

    /**
     * The records from {@code from} on, waiting for the next game; a scheduler lost meanwhile (stopped, its
     * token revoked) ends the command with exit code 3 and the command that picks the tournament up again.
     */
    private static GetGameRecordsResponse page(SchedulerClient scheduler, String id, int from, String refetch)
            throws IOException {
        try {
            return scheduler.records(id, from, 1000, WAIT_MILLIS);
        } catch (SchedulerClient.Unreachable | SchedulerClient.Refused e) {
            if (e instanceof SchedulerClient.Refused refused && refused.status() / 100 != 4) {
                throw e;
            }
            throw new ExitCodes.Lost(
                    "lost the scheduler: " + e.getMessage() + "; tournament " + id + " goes on in the cluster."
                            + " Follow it and write its records with: " + refetch,
                    e);
        }
    }

    /** How long one request for records waits for the next game to finish (a long poll). */
    private static final int WAIT_MILLIS = 10_000;

    /**
     * True once no further record will come: the tournament has stopped and, after an SPRT verdict, every
     * game it had handed out is counted (the referees play those out).
     */
    private static boolean settled(TournamentState state) {
        return state.getStatus() != Status.STATUS_RUNNING
                && (state.getStatus() != Status.STATUS_SPRT_CONCLUDED
                        || state.getFinishedGames() >= state.getPublishedGames());
    }

    /**
     * Prints each game of the tournament as it is counted until the tournament stops, then writes the
     * records folder and prints the report; returns the exit code for the tournament's end. A Ctrl-C stops
     * this command and not the tournament: its last word says so, and how to pick the tournament up again.
     * {@code waitingAtStart}: the {@link #waitingFor} warnings the caller has already said.
     */
    private static int follow(
            LocalCluster cluster,
            Path dir,
            List<String> waitingAtStart,
            SchedulerClient scheduler,
            RunPlan plan,
            TournamentState state,
            String refetch,
            PrintWriter out,
            PrintWriter err)
            throws IOException {
        String id = state.getTournamentId();
        Thread interrupted = new Thread(
                () -> {
                    err.println();
                    err.println("Interrupted; tournament " + id + " goes on in the cluster. Follow it and write its"
                            + " records with: " + refetch);
                    err.flush();
                },
                "taikai-interrupted");
        Runtime.getRuntime().addShutdownHook(interrupted);
        try {
            List<GameRecord> records = new ArrayList<>();
            long started = System.nanoTime();
            List<String> waiting = waitingAtStart;
            while (true) {
                var page = page(scheduler, id, records.size(), refetch);
                if (page.getRecordsCount() == 0 && page.getState().getStatus() == Status.STATUS_RUNNING) {
                    // a quiet while: say when it is because a member the games need has stopped, and when
                    // it runs again
                    List<String> now = waitingFor(cluster, dir);
                    for (String warning : now) {
                        if (!waiting.contains(warning)) {
                            err.println("warning: " + warning);
                        }
                    }
                    if (now.isEmpty() && !waiting.isEmpty()) {
                        err.println("the cluster's members run again");
                    }
                    waiting = now;
                }
                for (GameRecord record : page.getRecordsList()) {
                    var game = GameMessages.record(record).record();
                    records.add(record);
                    err.printf(
                            Locale.ROOT,
                            "[%d/%d] %s %s vs %s: %s by %s (%s, referee %s) | %.0f s elapsed%n",
                            records.size(),
                            // the scheduler's plan grows round by round: the total is what the spec says it will be
                            Math.max(plan.spec().gamesExpected(), state.getPlannedGames()),
                            game.id(),
                            game.assignment().sente(),
                            game.assignment().gote(),
                            game.winner() == null ? "draw" : game.winner() + " wins",
                            game.outcome().termination().name().toLowerCase(Locale.ROOT),
                            Plural.plies(game.plies()),
                            record.getRefereeId(),
                            (System.nanoTime() - started) / 1e9);
                }
                err.flush();
                state = page.getState();
                if (page.getRecordsCount() == 0 && settled(state) && records.size() >= page.getTotal()) {
                    break;
                }
            }
            try {
                // only the games whose records say they have a log: a request for each game would be
                // thousands of questions answered "none" at the end of a long tournament
                Set<String> logged = records.stream()
                        .filter(GameRecord::getEngineLog)
                        .map(r -> r.getAssignment().getLocalId())
                        .collect(Collectors.toSet());
                RecordsFolder.EngineLogSource logs =
                        game -> logged.contains(game) ? scheduler.engineLog(id, game) : Optional.empty();
                ClusterRecords.write(plan, state, records, logs, out).forEach(w -> err.println("warning: " + w));
            } catch (ConfigException e) {
                throw new ExitCodes.UsageException(e.getMessage());
            }
            out.printf(
                    "%nTournament %s: %s (%s)%n",
                    id, state.getStatus().name().substring(7).toLowerCase(Locale.ROOT), state.getStatusDetail());
            out.printf(
                    "Records on the scheduler: %s/api/tournaments/%s/games (with an access token, docs/access.md)%n",
                    cluster.scheduler().http(), id);
            if ((state.getStatus() == Status.STATUS_CANCELLED || state.getStatus() == Status.STATUS_ABORTED)
                    && state.getFinishedGames() < state.getPublishedGames()) {
                // the games in play when it stopped still count as they end, and nobody knows which have begun
                out.printf(
                        "%d of the games handed out were not counted when it stopped; those in play count as they"
                                + " end, and this writes the records again with them: %s%n",
                        state.getPublishedGames() - state.getFinishedGames(), refetch);
            }
            out.flush();
            err.flush();
            return state.getStatus() == Status.STATUS_CANCELLED || state.getStatus() == Status.STATUS_ABORTED
                    ? ExitCodes.FAILURE
                    : 0;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(interrupted);
            } catch (IllegalStateException e) {
                // the JVM is already shutting down: the hook says its line
            }
        }
    }

    @Command(
            name = "status",
            mixinStandardHelpOptions = true,
            description = {
                "Shows what the cluster runs and where; exit code 1 when a member is not running.",
                "With --url MEMBER, prints only that member's HTTP address, and with --ca only the file of the"
                        + " cluster's CA certificate (for scripts: curl --cacert \"$(./taikai cluster status --ca)\""
                        + " \"$(./taikai cluster status --url scheduler)/api/tournaments\")."
            })
    static final class StatusCommand extends Directory implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Option(
                names = "--url",
                paramLabel = "MEMBER",
                description = "print only the HTTP address of this member (scheduler, referee-1, worker-1, ...)")
        String url;

        @Option(names = "--ca", description = "print only the file of the cluster's CA certificate")
        boolean ca;

        @Override
        public Integer call() throws Exception {
            LocalCluster cluster = recorded();
            if (ca) {
                if (url != null) {
                    throw new ExitCodes.UsageException("--ca and --url print one thing each: give one of them");
                }
                spec.commandLine()
                        .getOut()
                        .println(cluster.certificates()
                                .orElseThrow(() -> new ExitCodes.UsageException(
                                        "the cluster runs in plaintext (--plaintext): it has no CA"))
                                .caCertificate());
                return 0;
            }
            if (url == null) {
                describe(spec.commandLine().getOut(), cluster);
                long down = cluster.members().stream().filter(m -> !m.running()).count();
                if (down > 0) { // a script's check of the cluster must see it
                    spec.commandLine()
                            .getErr()
                            .println(down + " of " + cluster.members().size() + " members are not running; start the"
                                    + " cluster again with '" + Launcher.command() + " cluster down" + dirOption(dir)
                                    + "' and '" + Launcher.command() + " cluster up" + dirOption(dir)
                                    + "' (its tournaments and tokens"
                                    + " are kept)");
                    return ExitCodes.FAILURE;
                }
                return 0;
            }
            for (LocalCluster.Member m : cluster.members()) {
                if (m.name().equals(url) && !m.role().equals("kafka")) {
                    spec.commandLine().getOut().println(m.http());
                    return 0;
                }
            }
            throw new ExitCodes.UsageException("--url: the cluster has no member '" + url
                    + "' with an HTTP address (it has: "
                    + String.join(
                            ", ",
                            cluster.members().stream()
                                    .filter(m -> !m.role().equals("kafka"))
                                    .map(LocalCluster.Member::name)
                                    .toList())
                    + ")");
        }
    }

    @Command(
            name = "down",
            mixinStandardHelpOptions = true,
            description =
                    "Stops everything 'taikai cluster up' started (referees, workers, scheduler, then Kafka); with no cluster running there it says so and exits 0.")
    static final class Down extends Directory implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            if (!LocalCluster.isRecorded(dir)) {
                List<ProcessHandle> unrecorded = LocalCluster.startedFrom(dir);
                if (!unrecorded.isEmpty()) { // an 'up' still starting, or one killed before it recorded them
                    return stop(
                            "No cluster is recorded in " + dir + " (a 'cluster up' there is still starting, or was"
                                    + " killed before it recorded its processes)",
                            unrecorded,
                            "Cluster in " + dir + " stopped.");
                }
                // stopped already: a teardown script's second down is no error
                spec.commandLine().getOut().println("No cluster runs in " + dir + "; nothing to stop.");
                return 0;
            }
            LocalCluster cluster;
            try {
                // stopping needs no certificates: a TLS cluster whose CA is gone stops too
                cluster = LocalCluster.recorded(dir, false).orElseThrow();
            } catch (LocalCluster.UnreadableRecord e) {
                return stopWithoutRecord(e);
            }
            cluster.stop(Duration.ofSeconds(40));
            Files.deleteIfExists(dir.resolve("catalog.path"));
            spec.commandLine().getOut().println("Cluster in " + dir + " stopped.");
            return 0;
        }

        /** A record that does not read: the members are found by their command lines instead, and stopped. */
        private int stopWithoutRecord(LocalCluster.UnreadableRecord unreadable) throws Exception {
            return stop(
                    unreadable.getMessage(),
                    LocalCluster.startedFrom(dir),
                    "Cluster in " + dir + " stopped; its record is removed.");
        }

        /**
         * Stops {@code found}, the processes of a cluster without a readable record, saying {@code why} before
         * and {@code done} after.
         */
        private int stop(String why, List<ProcessHandle> found, String done) throws Exception {
            var out = spec.commandLine().getOut();
            out.println(why + "; stopping the " + found.size()
                    + (found.size() == 1 ? " process" : " processes") + " whose command line names a file in " + dir
                    + (found.isEmpty() ? "" : " (pids " + pids(found) + ")"));
            LocalCluster.stopStartedFrom(dir, found, Duration.ofSeconds(40));
            Files.deleteIfExists(dir.resolve("catalog.path"));
            out.println(done);
            return 0;
        }
    }

    /** "12, 34": the ids of {@code processes}. */
    private static String pids(List<ProcessHandle> processes) {
        return processes.stream().map(p -> Long.toString(p.pid())).collect(Collectors.joining(", "));
    }
}
