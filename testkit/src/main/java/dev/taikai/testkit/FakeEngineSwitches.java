package dev.taikai.testkit;

/** The command-line switches of {@link FakeEngine}: each one a way to behave, or misbehave. */
final class FakeEngineSwitches {
    static final String USAGE = String.join(
            "\n",
            "usage: FakeEngine [switches]",
            "  --name NAME              id name (default: Taikai fake engine)",
            "  --seed N                 random seed for the moves, again at every usinewgame (default 1)",
            "  --think-ms N             think exactly N ms per move (default: a share of the clock, half a movetime)",
            "  --compute-ms N           search by running N ms on a CPU per move (longer on a shared CPU)",
            "  --crash-on-go            exit at once when told go",
            "  --crash-after N          exit at the go after N answered moves",
            "  --exit-code N            exit code of a crash (default 3)",
            "  --stall-after-go         never answer go",
            "  --no-usiok               never send usiok",
            "  --no-readyok             never send readyok",
            "  --illegal-move           answer a well-formed but illegal move",
            "  --malformed-bestmove     answer 'bestmove xyzzy'",
            "  --resign                 answer 'bestmove resign'",
            "  --win                    answer 'bestmove win'",
            "  --huge-line MB           before each bestmove, write one line of MB megabytes",
            "  --flood MB               before each bestmove, write MB megabytes of info lines",
            "  --flood-on-newgame MB    on usinewgame, write MB megabytes of info lines while nobody waits",
            "  --ignore-stop            never answer stop",
            "  --ignore-quit            do not exit on quit",
            "  --spawn-child            start a child process (sleep 600) and leave it behind",
            "  --no-variant             list UCI_Variant without minishogi and kyotoshogi",
            "  --no-variant-option      list no variant option at all",
            "  --slow-start MS          wait MS before reading anything",
            "  --swapped-clocks         read btime/wtime the wrong way round, as Fairy-Stockfish 11.1 does",
            "  --ponder                 offer USI_Ponder",
            "  --lishogi                read and write Kyoto shogi in lishogi notation",
            "  --ignore-moves           read a position's start and not its moves (answers as if no move was played)",
            "  --score CP               report this score (centipawns) with every move",
            "  --script M1,M2,...       play the next of these moves that is legal; random moves once none is left",
            "  --stderr TEXT            write TEXT to standard error at start",
            "  --log-input FILE         append every line it reads to FILE (what reached the engine)",
            "  --connect HOST:PORT FILE at start, open a TCP connection to HOST:PORT and write to FILE 'connected'",
            "                           or 'failed: REASON' (an engine reaching for the network)",
            "  --xboard                 speak XBoard (CECP 2) instead of USI; --no-usiok: never say feature done=1,",
            "                           --no-readyok: never answer ping; --malformed-bestmove: 'move xyzzy'",
            "  --no-ping                (XBoard) feature ping=0",
            "  --no-setboard            (XBoard) feature setboard=0",
            "  --no-nps                 (XBoard) feature nps=0: no node limits",
            "  --reuse-zero             (XBoard) feature reuse=0: a new process for every game",
            "  --no-setup               (XBoard) no setup announcement after variant",
            "  --wrong-setup            (XBoard) announce Minishogi's start without sente's pawn (in either variant)",
            "  --refuse-moves           (XBoard) answer every usermove with 'Illegal move'",
            "  --offer-draw             (XBoard) offer a draw before each move",
            "  --false-claim            (XBoard) claim '1-0 {White mates}' instead of moving",
            "  --claim-after-move       (XBoard) claim '1/2-1/2' after each move, in the move's own write",
            "  --resign-as-result       (XBoard) resign with '0-1 {White resigns}' (as gote '1-0 {Black resigns}')",
            "  --tab-bestmove           a tab, not a space, after bestmove",
            "  --stray-bestmove         'bestmove 5e4d' on reading usinewgame, asked for by nobody",
            "  (always) setoption name Debug Log File value PATH creates PATH, as Fairy-Stockfish does");

    String name = "Taikai fake engine";
    long seed = 1;
    long thinkMillis = -1;
    long computeMillis = -1;
    boolean crashOnGo;
    int crashAfter = -1;
    int exitCode = 3;
    boolean stallAfterGo;
    boolean noUsiok;
    boolean noReadyok;
    boolean illegalMove;
    boolean malformedBestmove;
    boolean resign;
    boolean win;
    int hugeLineMegabytes;
    int floodMegabytes;
    int newGameFloodMegabytes;
    boolean ignoreStop;
    boolean ignoreQuit;
    boolean spawnChild;
    boolean noVariant;
    boolean noVariantOption;
    long slowStartMillis;
    boolean swappedClocks;
    boolean ponder;
    boolean lishogi;
    boolean ignoreMoves;
    Integer score;
    java.util.List<String> script = java.util.List.of();
    String stderrText;
    String inputLog;
    String connectTo;
    String connectReport;
    boolean xboard;
    boolean noPing;
    boolean noSetboard;
    boolean noNps;
    boolean reuseZero;
    boolean noSetup;
    boolean wrongSetup;
    boolean refuseMoves;
    boolean offerDraw;
    boolean falseClaim;
    boolean claimAfterMove;
    /** USI: a tab, not a space, after {@code bestmove}. */
    boolean tabBestmove;
    /** USI: a {@code bestmove} nobody asked for, on reading {@code usinewgame}. */
    boolean strayBestmove;
    /** XBoard: resigns with a result and a comment, {@code 0-1 {White resigns}}, instead of a move. */
    boolean resignAsResult;

    static FakeEngineSwitches parse(String[] args) {
        FakeEngineSwitches s = new FakeEngineSwitches();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--name" -> s.name = value(args, ++i, arg);
                case "--seed" -> s.seed = number(args, ++i, arg);
                case "--think-ms" -> s.thinkMillis = number(args, ++i, arg);
                case "--compute-ms" -> s.computeMillis = number(args, ++i, arg);
                case "--crash-on-go" -> s.crashOnGo = true;
                case "--crash-after" -> s.crashAfter = (int) number(args, ++i, arg);
                case "--exit-code" -> s.exitCode = (int) number(args, ++i, arg);
                case "--stall-after-go" -> s.stallAfterGo = true;
                case "--no-usiok" -> s.noUsiok = true;
                case "--no-readyok" -> s.noReadyok = true;
                case "--illegal-move" -> s.illegalMove = true;
                case "--malformed-bestmove" -> s.malformedBestmove = true;
                case "--resign" -> s.resign = true;
                case "--win" -> s.win = true;
                case "--huge-line" -> s.hugeLineMegabytes = (int) number(args, ++i, arg);
                case "--flood" -> s.floodMegabytes = (int) number(args, ++i, arg);
                case "--flood-on-newgame" -> s.newGameFloodMegabytes = (int) number(args, ++i, arg);
                case "--ignore-stop" -> s.ignoreStop = true;
                case "--ignore-quit" -> s.ignoreQuit = true;
                case "--spawn-child" -> s.spawnChild = true;
                case "--no-variant" -> s.noVariant = true;
                case "--no-variant-option" -> s.noVariantOption = true;
                case "--slow-start" -> s.slowStartMillis = number(args, ++i, arg);
                case "--swapped-clocks" -> s.swappedClocks = true;
                case "--ponder" -> s.ponder = true;
                case "--lishogi" -> s.lishogi = true;
                case "--ignore-moves" -> s.ignoreMoves = true;
                case "--score" -> s.score = (int) number(args, ++i, arg);
                case "--script" ->
                    s.script = java.util.List.of(value(args, ++i, arg).split(","));
                case "--stderr" -> s.stderrText = value(args, ++i, arg);
                case "--log-input" -> s.inputLog = value(args, ++i, arg);
                case "--connect" -> {
                    s.connectTo = value(args, ++i, arg);
                    s.connectReport = value(args, ++i, arg);
                }
                case "--xboard" -> s.xboard = true;
                case "--no-ping" -> s.noPing = true;
                case "--no-setboard" -> s.noSetboard = true;
                case "--no-nps" -> s.noNps = true;
                case "--reuse-zero" -> s.reuseZero = true;
                case "--no-setup" -> s.noSetup = true;
                case "--wrong-setup" -> s.wrongSetup = true;
                case "--refuse-moves" -> s.refuseMoves = true;
                case "--offer-draw" -> s.offerDraw = true;
                case "--false-claim" -> s.falseClaim = true;
                case "--claim-after-move" -> s.claimAfterMove = true;
                case "--tab-bestmove" -> s.tabBestmove = true;
                case "--stray-bestmove" -> s.strayBestmove = true;
                case "--resign-as-result" -> s.resignAsResult = true;
                default -> throw new IllegalArgumentException("unknown switch '" + arg + "'");
            }
        }
        return s;
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }

    private static long number(String[] args, int index, String option) {
        try {
            return Long.parseLong(value(args, index, option));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs a whole number, not '" + args[index] + "'");
        }
    }
}
