package dev.taikai.testkit;

import dev.taikai.rules.IllegalMoveException;
import dev.taikai.rules.MoveException;
import dev.taikai.rules.Notation;
import dev.taikai.rules.Position;
import dev.taikai.rules.Square;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

/**
 * A fake USI engine: a real program, spoken to through pipes, that plays random legal moves in both
 * variants and misbehaves on request. See {@link FakeEngineSwitches} for the switches. Run it as
 * {@code java -cp <testkit and rules> dev.taikai.testkit.FakeEngine [switches]}, or through {@link
 * FakeEngines#command}.
 */
public final class FakeEngine {
    private final FakeEngineSwitches switches;
    private final PrintStream out;
    private final Random random;
    private final Object searchLock = new Object();

    private Variant variant = Variant.MINISHOGI;
    private Position position = Position.start(Variant.MINISHOGI);
    /**
     * The {@code go} commands read so far. Counted on the thread that reads commands, when each arrives:
     * the driver sends a {@code go} only after the previous one was answered, so this is the number of
     * answered moves whenever a new {@code go} is read, with no race against the search thread.
     */
    private int goCommands;

    private int scripted;
    /** What a move runs has been run once before any timed move ({@link #warmUp}). */
    private boolean warm;

    private Search search;

    /** A running {@code go}: the searcher thread waits on {@link #searchLock} until it may answer. */
    private static final class Search {
        /** How long to think once not pondering; {@link Long#MAX_VALUE} until stop. */
        final long millis;

        final long startedMillis = System.currentTimeMillis();

        boolean pondering;
        volatile boolean stopped;

        Search(long millis, boolean pondering) {
            this.millis = millis;
            this.pondering = pondering;
        }
    }

    private FakeEngine(FakeEngineSwitches switches, OutputStream stdout) {
        this.switches = switches;
        this.out = new PrintStream(stdout, false, StandardCharsets.UTF_8);
        this.random = new Random(switches.seed);
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        FakeEngineSwitches switches;
        try {
            switches = FakeEngineSwitches.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("fake engine: " + e.getMessage());
            System.err.println(FakeEngineSwitches.USAGE);
            System.exit(2);
            return;
        }
        if (switches.stderrText != null) {
            System.err.println(switches.stderrText);
            System.err.flush();
        }
        if (switches.spawnChild) {
            new ProcessBuilder("sleep", "600").start(); // left behind on purpose
        }
        if (switches.connectTo != null) {
            connect(switches.connectTo, java.nio.file.Path.of(switches.connectReport));
        }
        if (switches.slowStartMillis > 0) {
            Thread.sleep(switches.slowStartMillis);
        }
        if (switches.xboard) {
            new FakeXBoardEngine(switches, new PrintStream(System.out, false, StandardCharsets.UTF_8)).loop();
        } else {
            new FakeEngine(switches, System.out).loop();
        }
    }

    /** Tries a TCP connection to {@code hostAndPort} and writes how it went to {@code report}. */
    private static void connect(String hostAndPort, java.nio.file.Path report) throws IOException {
        int colon = hostAndPort.lastIndexOf(':');
        String outcome;
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.connect(
                    new java.net.InetSocketAddress(
                            hostAndPort.substring(0, colon), Integer.parseInt(hostAndPort.substring(colon + 1))),
                    5_000);
            outcome = "connected";
        } catch (IOException e) {
            outcome = "failed: " + e;
        }
        java.nio.file.Files.writeString(report, outcome + "\n");
    }

    private void loop() throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            logInput(switches, line, out);
            String[] words = line.trim().split("\\s+");
            switch (words[0]) {
                case "usi" -> handshake();
                case "isready" -> {
                    warmUp();
                    if (!switches.noReadyok) {
                        send("readyok");
                    }
                }
                case "setoption" -> setOption(line);
                case "usinewgame" -> {
                    // every game starts from the seed: the same opponent's moves get the same game, in
                    // whatever order and on whichever machine the games are played (both runners alike)
                    random.setSeed(switches.seed);
                    if (switches.strayBestmove) {
                        send("bestmove 5e4d");
                    }
                    if (switches.newGameFloodMegabytes > 0) {
                        writeRaw('i', switches.newGameFloodMegabytes, true);
                    }
                }
                case "gameover" -> {}
                case "position" -> position(line);
                case "go" -> go(words);
                case "stop" -> stop();
                case "ponderhit" -> ponderHit();
                case "quit" -> {
                    if (!switches.ignoreQuit) {
                        out.flush();
                        System.exit(0);
                    }
                }
                default -> {
                    if (!line.isBlank()) {
                        send("info string unknown command: " + line);
                    }
                }
            }
        }
    }

    private void handshake() {
        send("id name " + switches.name);
        send("id author Taikai testkit");
        send("option name Skill Level type spin default 20 min 0 max 20");
        send("option name Debug Log File type string default <empty>");
        if (switches.ponder) {
            send("option name USI_Ponder type check default false");
        }
        if (!switches.noVariantOption) {
            send(
                    switches.noVariant
                            ? "option name UCI_Variant type combo default chess var chess var shogi"
                            : "option name UCI_Variant type combo default minishogi var minishogi var kyotoshogi");
        }
        if (!switches.noUsiok) {
            send("usiok");
        }
    }

    /** With --log-input, appends {@code line} to the log file: the test's record of what reached the engine. */
    static void logInput(FakeEngineSwitches switches, String line, PrintStream out) {
        if (switches.inputLog != null) {
            try {
                java.nio.file.Files.writeString(
                        java.nio.file.Path.of(switches.inputLog),
                        line + "\n",
                        StandardCharsets.UTF_8,
                        java.nio.file.StandardOpenOption.CREATE,
                        java.nio.file.StandardOpenOption.APPEND);
            } catch (IOException e) {
                synchronized (out) {
                    out.print("# cannot log input: " + e.getMessage() + "\n");
                    out.flush();
                }
            }
        }
    }

    private void setOption(String line) {
        String log = "setoption name Debug Log File value ";
        if (line.startsWith(log)) {
            try { // as Fairy-Stockfish does: the file is created (truncated) at once
                java.nio.file.Files.writeString(java.nio.file.Path.of(line.substring(log.length())), "");
            } catch (IOException | RuntimeException e) {
                send("info string cannot open the debug log: " + e.getMessage());
            }
        }
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
            int moves = line.indexOf(" moves");
            String read = switches.ignoreMoves && moves >= 0 ? line.substring(0, moves) : line;
            position = Usi.positionCommand(variant, read, notation());
        } catch (Exception e) {
            send("info string cannot read position: " + e.getMessage());
        }
    }

    private void go(String[] words) {
        int answered = goCommands++;
        if (switches.crashOnGo || (switches.crashAfter >= 0 && answered >= switches.crashAfter)) {
            out.flush();
            System.err.println("fake engine: crashing on go as asked");
            Runtime.getRuntime().halt(switches.exitCode);
        }
        if (switches.stallAfterGo) {
            return;
        }
        boolean ponder = Arrays.asList(words).contains("ponder");
        Search started = new Search(thinkMillis(words), ponder);
        synchronized (searchLock) {
            search = started;
        }
        Position searched = position;
        Thread searcher = new Thread(() -> think(started, searched), "fake-search");
        searcher.setDaemon(true);
        searcher.start();
    }

    /** How long to think: --think-ms, else a share of the clock, half a movetime, or until stop. */
    private long thinkMillis(String[] words) {
        if (contains(words, "infinite")) {
            return Long.MAX_VALUE;
        }
        if (switches.thinkMillis >= 0) {
            return switches.thinkMillis;
        }
        if (switches.computeMillis >= 0) {
            return 0; // the search is the computing, then the move
        }
        long movetime = value(words, "movetime");
        if (movetime >= 0) {
            return movetime / 2;
        }
        boolean sente = position.sideToMove() == dev.taikai.rules.Color.SENTE;
        String own = sente != switches.swappedClocks ? "btime" : "wtime";
        long clock = value(words, own);
        if (clock >= 0) {
            long byoyomi = Math.max(0, value(words, "byoyomi"));
            return Math.min(clock / 20 + byoyomi / 2, 2000);
        }
        return 0;
    }

    private void think(Search running, Position searched) {
        if (switches.computeMillis >= 0) {
            compute(running, switches.computeMillis);
            answerThenLinger(running, searched);
            return;
        }
        thinkAndAnswer(running, searched);
    }

    /**
     * Answers, and keeps this thread alive a while, as an engine's search thread outlives its move: Linux's
     * count of its time on and waiting for a CPU is still there when the referee reads the bestmove.
     */
    private void answerThenLinger(Search running, Position searched) {
        thinkAndAnswer(running, searched);
        try {
            Thread.sleep(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void thinkAndAnswer(Search running, Position searched) {
        synchronized (searchLock) {
            long deadline = Long.MAX_VALUE;
            while (!running.stopped) {
                if (!running.pondering && deadline == Long.MAX_VALUE && running.millis != Long.MAX_VALUE) {
                    deadline = System.currentTimeMillis() + running.millis; // the clock starts when pondering ends
                }
                long wait = deadline == Long.MAX_VALUE ? 0 : deadline - System.currentTimeMillis();
                if (deadline != Long.MAX_VALUE && wait <= 0) {
                    break;
                }
                try {
                    searchLock.wait(wait);
                } catch (InterruptedException e) {
                    return;
                }
            }
            if (search != running) {
                return;
            }
            search = null;
        }
        answer(searched, System.currentTimeMillis() - running.startedMillis);
    }

    /**
     * Keeps this thread on a CPU until it has run {@code millis} there (not on the wall clock), as an engine
     * that searches a fixed number of nodes: on a shared CPU it takes longer.
     */
    private static void compute(Search running, long millis) {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long until = threads.getCurrentThreadCpuTime() + millis * 1_000_000;
        long work = 0;
        while (!running.stopped && threads.getCurrentThreadCpuTime() < until) {
            for (int i = 0; i < 10_000; i++) {
                work += i * 31L ^ work;
            }
        }
        if (work == 42) {
            System.err.println(); // keeps the loop from being optimised away
        }
    }

    private void stop() {
        synchronized (searchLock) {
            if (search != null && !switches.ignoreStop) {
                search.stopped = true;
                searchLock.notifyAll();
            }
        }
    }

    private void ponderHit() {
        synchronized (searchLock) {
            if (search != null && search.pondering) {
                search.pondering = false;
                searchLock.notifyAll();
            }
        }
    }

    private void answer(Position searched, long elapsedMillis) {
        if (switches.hugeLineMegabytes > 0) {
            writeRaw('x', switches.hugeLineMegabytes, false);
        }
        if (switches.floodMegabytes > 0) {
            writeRaw('i', switches.floodMegabytes, true);
        }
        String move = chooseMove(searched);
        int score = switches.score != null ? switches.score : random.nextInt(201) - 100;
        send("info depth 1 seldepth 1 score cp " + score + " nodes " + (1 + random.nextInt(1000)) + " nps 1000 time "
                + elapsedMillis + " hashfull 0 pv " + move);
        send((switches.tabBestmove ? "bestmove\t" : "bestmove ") + move);
    }

    /**
     * Before the first {@code readyok}, runs what a move runs (move generation and formatting, a search
     * thread), so that the first timed move does not pay for loading and compiling it: a fake told to think
     * 115 ms then answers in about 115 ms, not 165.
     */
    private void warmUp() {
        if (warm) {
            return;
        }
        warm = true;
        long deadline = System.nanoTime() + 40_000_000L;
        while (System.nanoTime() < deadline) {
            for (Variant v : Variant.all()) {
                Position start = Position.start(v);
                int[] legal = start.legalMoves();
                Usi.format(legal[0], v, notation());
                start.play(legal[0]).legalMoves();
            }
        }
        Thread thread = new Thread(() -> {}, "fake-warm-up");
        thread.start();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String chooseMove(Position searched) {
        if (switches.malformedBestmove) {
            return "xyzzy";
        }
        if (switches.resign) {
            return "resign";
        }
        if (switches.win) {
            return "win";
        }
        if (switches.illegalMove) {
            return illegalMove(searched);
        }
        while (scripted < switches.script.size()) {
            String next = switches.script.get(scripted++);
            try {
                return Usi.format(Usi.parse(searched, next), searched.variant(), notation());
            } catch (MoveException e) {
                // this scripted move does not fit the game: skip it and try the next
            }
        }
        int[] legal = searched.legalMoves();
        return legal.length == 0
                ? "resign"
                : Usi.format(legal[random.nextInt(legal.length)], searched.variant(), notation());
    }

    private Notation notation() {
        return switches.lishogi ? Notation.LISHOGI : Notation.FAIRY_STOCKFISH;
    }

    /** A well-formed board move that the rules reject in this position. */
    private static String illegalMove(Position searched) {
        for (int from = 0; from < Square.COUNT; from++) {
            for (int to = 0; to < Square.COUNT; to++) {
                String text = Square.name(from) + Square.name(to);
                try {
                    Usi.parse(searched, text, Notation.FAIRY_STOCKFISH);
                } catch (IllegalMoveException e) {
                    if (searched.pieceAt(from) != 0) {
                        return text;
                    }
                } catch (MoveException e) {
                    // malformed: keep looking
                }
            }
        }
        return "5a5a";
    }

    /** Megabytes of output: one line without a newline until the end, or a flood of info lines. */
    private void writeRaw(char fill, int megabytes, boolean asInfoLines) {
        writeRaw(
                out,
                fill,
                megabytes,
                asInfoLines ? "info string flood flood flood flood flood flood flood flood\n" : null);
    }

    /**
     * Megabytes of {@code fill} to {@code out} as one line with a newline only at the end, or, with a {@code
     * floodLine}, as that line again and again.
     */
    static void writeRaw(PrintStream out, char fill, int megabytes, String floodLine) {
        byte[] chunk = new byte[64 * 1024];
        Arrays.fill(chunk, (byte) fill);
        if (floodLine != null) {
            byte[] line = floodLine.getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i + line.length <= chunk.length; i += line.length) {
                System.arraycopy(line, 0, chunk, i, line.length);
            }
            chunk[chunk.length - 1] = '\n';
        }
        synchronized (out) {
            for (long written = 0; written < megabytes * 1024L * 1024L; written += chunk.length) {
                out.write(chunk, 0, chunk.length);
            }
            out.write('\n');
            out.flush();
        }
    }

    private void send(String line) {
        synchronized (out) {
            out.print(line);
            out.print('\n');
            out.flush();
        }
    }

    private static boolean contains(String[] words, String word) {
        return Arrays.asList(words).contains(word);
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
