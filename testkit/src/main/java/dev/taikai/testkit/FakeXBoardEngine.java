package dev.taikai.testkit;

import dev.taikai.rules.Color;
import dev.taikai.rules.InvalidSfenException;
import dev.taikai.rules.MoveException;
import dev.taikai.rules.Notation;
import dev.taikai.rules.Position;
import dev.taikai.rules.Sfen;
import dev.taikai.rules.Square;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A fake XBoard (CECP version 2) engine: a real program that plays random legal moves in both variants,
 * speaks XBoard's coordinates ({@code c1d2+}, {@code P@c3}; Kyoto shogi in lishogi's letters), and
 * misbehaves on request with the switches of the USI fake where they apply and XBoard's own ({@link
 * FakeEngineSwitches}). Its translation of squares and positions is its own, apart from the driver's, so a
 * mistake in either shows as a disagreement. Started by {@code FakeEngine --xboard}.
 */
final class FakeXBoardEngine {
    /** The piece tables and starts CrazyWa announces for the two variants. */
    private static final String MINISHOGI_SETUP =
            "setup (P.BR.S...G.+.++.+Kp.br.s...g.+.++.+k) 5x5+5_shogi rbsgk/4p/5/P4/KGSBR w 0 1";

    private static final String KYOTO_SETUP =
            "setup (P-G=N-S=B-P=R-T=LS...G.TKp-g=n-s=b-p=r-t=ls...g.tk) 5x5+4_shogi pgkst/5/5/5/TSKGP w 0 1";

    private final FakeEngineSwitches switches;
    private final PrintStream out;
    private final Random random;
    private final Object lock = new Object();

    private Variant variant = Variant.MINISHOGI;
    private Position position = Position.start(Variant.MINISHOGI);
    private boolean force;
    private Color engineSide = Color.GOTE;
    private long moveTimeMillis = -1;
    private long incrementMillis;
    private long clockMillis = -1;
    /** Told {@code sd} or {@code nps}: the search is bounded by depth or nodes, not by the clock. */
    private boolean bounded;

    private int goCommands;
    private int scripted;
    /** The running search, or null; pings read while it runs are answered after its move. */
    private Thread searching;

    private volatile boolean moveNow;
    private final List<String> pendingPongs = new ArrayList<>();

    FakeXBoardEngine(FakeEngineSwitches switches, PrintStream out) {
        this.switches = switches;
        this.out = out;
        this.random = new Random(switches.seed);
    }

    void loop() throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            FakeEngine.logInput(switches, line, out);
            String trimmed = line.trim();
            String[] words = trimmed.split("\\s+");
            switch (words[0]) {
                case "xboard",
                        "accepted",
                        "rejected",
                        "easy",
                        "hard",
                        "post",
                        "nopost",
                        "random",
                        "computer",
                        "otim",
                        "result",
                        "name",
                        "rating",
                        "memory",
                        "cores",
                        "option" -> {}
                case "sd", "nps" -> bounded = true; // a search of a few nodes: answered at once
                case "protover" -> features();
                case "new" -> {
                    awaitSearch();
                    random.setSeed(switches.seed); // every game from the seed, as the USI fake
                    position = Position.start(variant);
                    force = false;
                    engineSide = Color.GOTE;
                    bounded = false;
                    if (switches.newGameFloodMegabytes > 0) {
                        FakeEngine.writeRaw(out, 'i', switches.newGameFloodMegabytes, "# flood flood flood flood\n");
                    }
                }
                case "variant" -> variant(words.length > 1 ? words[1] : "");
                case "force" -> {
                    awaitSearch();
                    force = true;
                }
                case "setboard" ->
                    setBoard(trimmed.substring("setboard".length()).trim());
                case "usermove" -> userMove(words.length > 1 ? words[1] : "");
                case "level" -> level(words);
                case "st" -> moveTimeMillis = Math.round(Double.parseDouble(words[1]) * 1000);
                case "time" -> clockMillis = Long.parseLong(words[1]) * 10;
                case "go" -> {
                    force = false;
                    engineSide = position.sideToMove();
                    go();
                }
                case "?" -> {
                    if (!switches.ignoreStop) {
                        moveNow = true;
                        synchronized (lock) {
                            lock.notifyAll();
                        }
                    }
                }
                case "ping" -> ping(words.length > 1 ? words[1] : "");
                case "quit" -> {
                    if (!switches.ignoreQuit) {
                        out.flush();
                        System.exit(0);
                    }
                }
                default -> {
                    if (isCoordinateMove(words[0])) {
                        userMove(words[0]);
                    } else if (!trimmed.isEmpty()) {
                        send("Error (unknown command): " + trimmed);
                    }
                }
            }
        }
    }

    private void features() {
        String variants = switches.noVariant ? "normal,shogi,crazyhouse" : "normal,minishogi,kyotoshogi,5x5+5_shogi";
        send("feature ping=" + (switches.noPing ? 0 : 1) + " setboard=" + (switches.noSetboard ? 0 : 1)
                + " usermove=1 time=1 colors=0 sigint=0 sigterm=0 nps=" + (switches.noNps ? 0 : 1)
                + " reuse=" + (switches.reuseZero ? 0 : 1)
                + " myname=\"" + switches.name + "\"");
        send("feature variants=\"" + variants + "\"");
        send("feature option=\"Skill Level -spin 20 0 20\"");
        send("feature option=\"Debug Log File -file \"");
        send("feature option=\"Ponder -check 0\"");
        if (!switches.noUsiok) {
            send("feature done=1");
        }
    }

    private void variant(String name) {
        Variant chosen = switch (name) {
            case "minishogi", "5x5+5_shogi" -> Variant.MINISHOGI;
            case "kyotoshogi", "5x5+4_shogi" -> Variant.KYOTOSHOGI;
            default -> null;
        };
        if (chosen == null) {
            send("Error (unknown variant): " + name);
            return;
        }
        variant = chosen;
        position = Position.start(chosen);
        if (switches.wrongSetup) {
            send("setup (P.BR.S...G.+.++.+Kp.br.s...g.+.++.+k) 5x5+5_shogi rbsgk/4p/5/5/KGSBR w 0 1");
        } else if (!switches.noSetup) {
            send(chosen == Variant.MINISHOGI ? MINISHOGI_SETUP : KYOTO_SETUP);
        }
    }

    /** {@code setboard FEN}: the board as SFEN's, holdings as letters in brackets, w for sente. */
    private void setBoard(String fen) {
        try {
            int open = fen.indexOf('[');
            int close = fen.indexOf(']');
            String board = fen.substring(0, open);
            String holdings = fen.substring(open + 1, close);
            String side = fen.substring(close + 1).trim().split("\\s+")[0];
            StringBuilder hands = new StringBuilder();
            for (char c : holdings.toCharArray()) {
                if (c != '-') {
                    hands.append(c);
                }
            }
            position = Sfen.parse(
                    variant,
                    board + " " + (side.equals("w") ? "b" : "w") + " " + (hands.isEmpty() ? "-" : hands) + " 1");
        } catch (InvalidSfenException | RuntimeException e) {
            send("tellusererror Illegal position: " + e.getMessage());
        }
    }

    private void userMove(String text) {
        if (switches.refuseMoves) {
            send("Illegal move: " + text);
            return;
        }
        try {
            position = position.play(Usi.parse(position, toUsi(text), Notation.LISHOGI));
        } catch (MoveException | RuntimeException e) {
            send("Illegal move (" + e.getMessage() + "): " + text);
            return;
        }
        if (!force && position.sideToMove() == engineSide) {
            go();
        }
    }

    private void level(String[] words) {
        String base = words[2];
        long millis = base.contains(":")
                ? (Long.parseLong(base.substring(0, base.indexOf(':'))) * 60
                                + Long.parseLong(base.substring(base.indexOf(':') + 1)))
                        * 1000
                : Long.parseLong(base) * 60_000;
        clockMillis = millis;
        incrementMillis = Math.round(Double.parseDouble(words[3]) * 1000);
        moveTimeMillis = -1;
    }

    private void ping(String n) {
        synchronized (lock) {
            if (searching != null) {
                pendingPongs.add(n); // answered after the move, as CECP asks
                return;
            }
        }
        if (!switches.noReadyok) {
            send("pong " + n);
        }
    }

    private void go() {
        int answered = goCommands++;
        if (switches.crashOnGo || (switches.crashAfter >= 0 && answered >= switches.crashAfter)) {
            out.flush();
            System.err.println("fake engine: crashing on go as asked");
            Runtime.getRuntime().halt(switches.exitCode);
        }
        if (switches.stallAfterGo) {
            return;
        }
        long think = thinkMillis();
        Position searched = position;
        moveNow = false;
        Thread thread = new Thread(() -> think(think, searched), "fake-xboard-search");
        thread.setDaemon(true);
        synchronized (lock) {
            searching = thread;
        }
        thread.start();
    }

    private long thinkMillis() {
        if (switches.thinkMillis >= 0) {
            return switches.thinkMillis;
        }
        if (bounded) {
            return 5;
        }
        if (moveTimeMillis >= 0) {
            return moveTimeMillis / 2;
        }
        if (clockMillis >= 0) {
            return Math.min(clockMillis / 20 + incrementMillis / 2, 2000);
        }
        return 0;
    }

    private void think(long millis, Position searched) {
        long deadline = System.currentTimeMillis() + millis;
        synchronized (lock) {
            while (!moveNow && System.currentTimeMillis() < deadline) {
                try {
                    lock.wait(Math.max(1, deadline - System.currentTimeMillis()));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
        answer(searched, millis);
        List<String> pongs;
        synchronized (lock) {
            searching = null;
            pongs = new ArrayList<>(pendingPongs);
            pendingPongs.clear();
            lock.notifyAll();
        }
        for (String n : pongs) {
            send("pong " + n);
        }
    }

    /** Waits for a running search to end: commands after it are taken once it has moved, as engines do. */
    private void awaitSearch() {
        synchronized (lock) {
            while (searching != null) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private void answer(Position searched, long millis) {
        if (switches.hugeLineMegabytes > 0) {
            FakeEngine.writeRaw(out, 'x', switches.hugeLineMegabytes, null);
        }
        if (switches.floodMegabytes > 0) {
            FakeEngine.writeRaw(out, 'i', switches.floodMegabytes, "1 0 0 1 flood flood flood flood\n");
        }
        if (switches.offerDraw) {
            send("offer draw");
        }
        if (switches.falseClaim) {
            send("1-0 {White mates}");
            return;
        }
        if (switches.resign) {
            send("resign");
            return;
        }
        if (switches.resignAsResult) {
            send(engineSide == Color.SENTE ? "0-1 {White resigns}" : "1-0 {Black resigns}");
            return;
        }
        if (switches.malformedBestmove) {
            send("move xyzzy");
            return;
        }
        String usi = chooseMove(searched);
        int score = switches.score != null ? switches.score : random.nextInt(201) - 100;
        String xboard = toXBoard(usi);
        send("1 " + score + " " + millis / 10 + " " + (1 + random.nextInt(1000)) + " " + xboard);
        try {
            position = searched.play(Usi.parse(searched, usi, Notation.LISHOGI));
        } catch (MoveException e) {
            // an illegal move on purpose: the engine's own board stays where it was
        }
        // the claim in the same write as the move: read with it, whenever the driver reads the move
        send("move " + xboard + (switches.claimAfterMove ? "\n1/2-1/2 {claimed after the move}" : ""));
    }

    private String chooseMove(Position searched) {
        if (switches.illegalMove) {
            for (int from = 0; from < Square.COUNT; from++) {
                for (int to = 0; to < Square.COUNT; to++) {
                    String text = Square.name(from) + Square.name(to);
                    try {
                        Usi.parse(searched, text, Notation.LISHOGI);
                    } catch (MoveException e) {
                        if (searched.pieceAt(from) != 0 && e instanceof dev.taikai.rules.IllegalMoveException) {
                            return text;
                        }
                    }
                }
            }
        }
        while (scripted < switches.script.size()) {
            String next = switches.script.get(scripted++);
            try {
                return Usi.format(Usi.parse(searched, next), searched.variant(), Notation.LISHOGI);
            } catch (MoveException e) {
                // not for this game: the next one
            }
        }
        int[] legal = searched.legalMoves();
        return Usi.format(legal[random.nextInt(legal.length)], searched.variant(), Notation.LISHOGI);
    }

    /** USI {@code 3e2d+} as {@code c1d2+}, {@code S*3c} as {@code S@c3}. */
    private static String toXBoard(String usi) {
        int star = usi.indexOf('*');
        if (star >= 0) {
            return usi.substring(0, star) + "@" + xboardSquare(usi.substring(star + 1, star + 3));
        }
        return xboardSquare(usi.substring(0, 2)) + xboardSquare(usi.substring(2, 4)) + usi.substring(4);
    }

    private static String xboardSquare(String usi) {
        int file = usi.charAt(0) - '0'; // 5 is XBoard's a
        int rank = usi.charAt(1) - 'a'; // a is XBoard's 5
        return "" + "edcba".charAt(file - 1) + (5 - rank);
    }

    private static String toUsi(String xboard) {
        int at = xboard.indexOf('@');
        if (at >= 0) {
            return xboard.substring(0, at) + "*" + usiSquare(xboard.substring(at + 1, at + 3));
        }
        String suffix = xboard.length() > 4 && xboard.charAt(4) == '+' ? "+" : "";
        return usiSquare(xboard.substring(0, 2)) + usiSquare(xboard.substring(2, 4)) + suffix;
    }

    private static String usiSquare(String xboard) {
        return "" + (5 - "abcde".indexOf(xboard.charAt(0))) + "edcba".charAt(xboard.charAt(1) - '1');
    }

    private static boolean isCoordinateMove(String word) {
        return word.matches("[a-e][1-5][a-e][1-5][+=]?|[A-Z]@[a-e][1-5]");
    }

    private void send(String line) {
        synchronized (out) {
            out.print(line + "\n"); // one write, whole lines: what is sent together is read together
            out.flush();
        }
    }
}
