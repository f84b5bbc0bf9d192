package dev.taikai.engine;

import dev.taikai.rules.Color;
import dev.taikai.rules.Move;
import dev.taikai.rules.Position;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * Taikai's built-in USI engine: alpha-beta at four levels (1 weakest: depth 1 with noise; 4: as deep as
 * its time allows). A reference opponent, not a strength project. Run as {@code java -cp <jar>
 * dev.taikai.engine.BuiltinEngine --level N}; it speaks Fairy-Stockfish notation and selects the
 * variant with {@code UCI_Variant}.
 */
public final class BuiltinEngine {
    private static final int[] DEPTH = {0, 1, 2, 3, 64};
    private static final int[] NOISE = {0, 150, 40, 0, 0};

    private final int level;
    private final PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    private Variant variant = Variant.MINISHOGI;
    private Position position = Position.start(Variant.MINISHOGI);
    private volatile boolean stopRequested;
    /** Told when a stop comes: a 'go infinite' whose search has ended waits for it. */
    private final Object stopped = new Object();

    private Thread searcher;
    /** The search has been run once before any timed move ({@link #warmUp}). */
    private boolean warm;

    static final long WARM_UP_CPU_MILLIS = 400;
    static final long WARM_UP_LIMIT_MILLIS = 4_000;
    private long games;

    private BuiltinEngine(int level) {
        this.level = level;
    }

    public static void main(String[] args) throws IOException {
        int level = 3;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--level") && i + 1 < args.length) {
                try {
                    level = Integer.parseInt(args[++i]);
                } catch (NumberFormatException e) {
                    level = -1;
                }
            } else {
                level = -1;
            }
        }
        if (level < 1 || level > 4) {
            System.err.println("usage: BuiltinEngine [--level 1|2|3|4]");
            System.exit(2);
        }
        new BuiltinEngine(level).loop();
    }

    private void loop() throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] words = line.trim().split("\\s+");
            switch (words[0]) {
                case "usi" -> {
                    send("id name Taikai level " + level);
                    send("id author Taikai");
                    send("option name UCI_Variant type combo default minishogi var minishogi var kyotoshogi");
                    send("usiok");
                }
                case "isready" -> {
                    warmUp();
                    send("readyok");
                }
                case "setoption" -> setOption(line);
                case "usinewgame" -> games++;
                case "position" -> position(line);
                case "go" -> go(words);
                case "stop" -> requestStop();
                case "quit" -> {
                    requestStop();
                    out.flush();
                    System.exit(0);
                }
                default -> {} // gameover, ponderhit and unknown commands need no answer
            }
        }
    }

    private void setOption(String line) {
        String prefix = "setoption name UCI_Variant value ";
        if (line.startsWith(prefix)) {
            Variant.byName(line.substring(prefix.length()).trim()).ifPresent(v -> {
                variant = v;
                position = Position.start(v);
            });
        }
    }

    private void position(String line) {
        try {
            position = Usi.positionCommand(variant, line);
        } catch (Exception e) {
            send("info string cannot read the position: " + e.getMessage());
        }
    }

    private void go(String[] words) {
        awaitSearcher();
        stopRequested = false;
        long started = System.nanoTime();
        long budget = budgetMillis(words);
        long deadline = budget < 0 ? Long.MAX_VALUE : started + budget * 1_000_000;
        long nodes = value(words, "nodes");
        int depth = (int) Math.min(DEPTH[level], value(words, "depth") > 0 ? value(words, "depth") : Integer.MAX_VALUE);
        Position root = position;
        Random random = new Random(games * 1_000_003 + root.key());
        Search search = new Search(
                random,
                NOISE[level],
                nodes > 0 ? nodes : Long.MAX_VALUE,
                () -> stopRequested || System.nanoTime() > deadline);
        // 'go infinite' searches until stop (USI): a search that ends sooner keeps its move until then
        boolean untilStop = java.util.Arrays.asList(words).contains("infinite");
        searcher = new Thread(
                () -> {
                    int best = search.bestMove(root, depth, iteration -> info(iteration, started));
                    if (untilStop) {
                        awaitStop();
                    }
                    send(best == Move.NONE ? "bestmove resign" : "bestmove " + Usi.format(best, root.variant()));
                },
                "search");
        searcher.setDaemon(true);
        searcher.start();
    }

    /**
     * Before the first {@code readyok}: searches until this thread has spent {@value #WARM_UP_CPU_MILLIS} ms
     * of CPU, then waits until the JIT compilers have finished what that queued (their total time stops
     * growing), at most {@value #WARM_UP_LIMIT_MILLIS} ms in all. So no timed move pays for compiling the
     * search: cold, a 50 ms move took 85 to 170 ms, and 300 ms of warm-up by the wall clock were not
     * enough when four engines started at once on two cores.
     */
    private void warmUp() {
        if (warm) {
            return;
        }
        warm = true;
        long limit = System.nanoTime() + WARM_UP_LIMIT_MILLIS * 1_000_000;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuStart = threads.getCurrentThreadCpuTime();
        Random random = new Random(1);
        while (threads.getCurrentThreadCpuTime() - cpuStart < WARM_UP_CPU_MILLIS * 1_000_000
                && System.nanoTime() < limit) {
            for (Variant v : Variant.all()) {
                long until = System.nanoTime() + 20_000_000;
                new Search(random, NOISE[level], Long.MAX_VALUE, () -> System.nanoTime() > until)
                        .bestMove(Position.start(v), DEPTH[level], iteration -> {});
            }
        }
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return;
        }
        for (long last = -1; System.nanoTime() < limit; ) {
            long total = jit.getTotalCompilationTime();
            if (total == last) {
                return;
            }
            last = total;
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Milliseconds to think, or −1 until stop (infinite, nodes and depth searches). Every budget keeps a
     * safety allowance for answering and for the machine's scheduling: a fixed time per move keeps a tenth,
     * at least 15 ms.
     */
    private long budgetMillis(String[] words) {
        long movetime = value(words, "movetime");
        if (movetime > 0) {
            return Math.max(1, movetime - Math.max(15, movetime / 10));
        }
        boolean sente = position.sideToMove() == Color.SENTE;
        long own = value(words, sente ? "btime" : "wtime");
        if (own < 0) {
            return -1;
        }
        long byoyomi = Math.max(0, value(words, "byoyomi"));
        long increment = Math.max(0, value(words, sente ? "binc" : "winc"));
        long budget = own / 25 + (byoyomi + increment) * 6 / 10;
        return Math.max(1, Math.min(budget, own + byoyomi - Math.min(50, (own + byoyomi) / 3)));
    }

    private void info(Search.Iteration iteration, long started) {
        long millis = Math.max(1, (System.nanoTime() - started) / 1_000_000);
        int score = iteration.score();
        String value = Math.abs(score) > Search.MATE - 1000
                ? "mate " + (score > 0 ? Search.MATE - score : -(Search.MATE + score))
                : "cp " + score;
        send("info depth " + iteration.depth() + " score " + value + " nodes " + iteration.nodes() + " nps "
                + iteration.nodes() * 1000 / millis + " time " + millis + " pv "
                + Usi.format(iteration.move(), position.variant()));
    }

    private void requestStop() {
        synchronized (stopped) {
            stopRequested = true;
            stopped.notifyAll();
        }
    }

    private void awaitStop() {
        synchronized (stopped) {
            while (!stopRequested) {
                try {
                    stopped.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void awaitSearcher() {
        if (searcher != null) {
            requestStop();
            try {
                searcher.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private synchronized void send(String line) {
        out.print(line);
        out.print('\n');
        out.flush();
    }

    private static long value(String[] words, String key) {
        for (int i = 0; i + 1 < words.length; i++) {
            if (words[i].equals(key)) {
                try {
                    return Long.parseLong(words[i + 1]);
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }
}
