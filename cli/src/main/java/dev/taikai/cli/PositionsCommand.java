package dev.taikai.cli;

import java.io.FileInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
        name = "positions",
        mixinStandardHelpOptions = true,
        description = {
            "Replays positions in batch, for comparing Taikai with other implementations.",
            "Reads lines 'variant<TAB>sfen-or-startpos<TAB>moves separated by spaces' and prints one JSON object"
                    + " per line with sfen, turn, in_check, status, winner, moves_applied, error, legal"
                    + " (and perft with --perft).",
            "Kyoto input may be in either notation."
        })
final class PositionsCommand implements Callable<Integer> {
    /** No sensible line is this long; longer ones are reported and skipped. */
    static final int MAX_LINE_CHARS = 1 << 20;

    @ParentCommand
    private Taikai taikai;

    @Spec
    private CommandSpec spec;

    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "FILE",
            description = "read this file instead of standard input")
    private String file;

    @Option(
            names = "--perft",
            paramLabel = "N",
            description = "also count perft to depth N from each final position (0 to 6); as RULES.md counts"
                    + " perft, the position's moves whatever ended the game (a repetition leaves legal empty,"
                    + " not the count)")
    private Integer perftDepth;

    @Option(
            names = "--notation",
            paramLabel = "fsf|lishogi",
            defaultValue = "fsf",
            description = "how Kyoto SFEN and moves are printed (default: ${DEFAULT-VALUE})")
    private String notationId;

    @Override
    public Integer call() throws IOException {
        if (perftDepth != null && (perftDepth < 0 || perftDepth > 6)) {
            throw new ExitCodes.UsageException("--perft must be between 0 and 6, not " + perftDepth);
        }
        PositionReport report = new PositionReport(GameArguments.notation(notationId), perftDepth);
        PrintWriter out = spec.commandLine().getOut();
        try (InputStream input = open();
                Reader reader = new InputStreamReader(input, StandardCharsets.UTF_8)) {
            BoundedLineReader lines = new BoundedLineReader(reader, MAX_LINE_CHARS);
            boolean first = true;
            for (BoundedLineReader.Line line = lines.next(); line != null; line = lines.next()) {
                String text = line.text();
                if (first && text != null && text.startsWith("\uFEFF")) {
                    text = text.substring(1); // a byte-order mark, as editors on Windows write
                }
                first = false;
                out.println(
                        line.tooLong()
                                ? PositionReport.failure("line longer than " + MAX_LINE_CHARS + " characters")
                                : report.describe(text));
            }
        } finally {
            out.flush();
        }
        return 0;
    }

    private InputStream open() throws IOException {
        if (file == null || file.equals("-")) {
            return new FilterInputStream(taikai.stdin()) {
                @Override
                public void close() {
                    // standard input belongs to the caller
                }
            };
        }
        try {
            return new FileInputStream(file);
        } catch (IOException e) {
            throw new ExitCodes.UsageException("cannot read " + file + ": " + e.getMessage());
        }
    }
}
