package dev.taikai.enginehost.session;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * A game's engine log as Taikai writes it, locally ({@code taikai run -log}) and in a cluster: the lines
 * to and from both engines, merged in the order they crossed the pipes, one a line: {@code
 * 2026-12-02T18:00:00.123456Z fsf-a > go btime 1000 wtime 1000 byoyomi 100} ({@code >} to the engine,
 * {@code <} from it, {@code !} Taikai's note, such as a failed engine's standard error), gzip-compressed.
 * In a cluster the two engines may run on two machines: their lines are merged by each machine's clock.
 */
public final class GameLog {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    /** How much the compressor may hold back before it writes; a cap leaves this much room. */
    private static final int DEFLATER_SLACK = 64 * 1024;

    private GameLog() {}

    /** One engine's entries with the name the game gives it. */
    public record Side(String name, List<PipeLog.Entry> entries) {}

    /**
     * Takes the lines since the last take from the engine's log, if it keeps one; a failed engine's
     * standard error tail is added as notes, log or no log.
     */
    public static List<PipeLog.Entry> take(LocalEngine engine) {
        List<PipeLog.Entry> entries =
                new ArrayList<>(engine.pipeLog().map(PipeLog::take).orElse(List.of()));
        if (engine.failure().isPresent()) {
            entries.addAll(stderrNotes(engine.stderrTail()));
        }
        return entries;
    }

    /** A failed engine's standard error tail as notes, timed now. */
    public static List<PipeLog.Entry> stderrNotes(List<String> lines) {
        long now = PipeLog.epochMicros(System.nanoTime());
        return lines.stream()
                .map(line -> new PipeLog.Entry(now, PipeLog.Direction.NOTE, "stderr: " + line))
                .toList();
    }

    /** Whether there is anything to write. */
    public static boolean any(List<Side> sides) {
        return sides.stream().anyMatch(side -> !side.entries().isEmpty());
    }

    /** The merged log, gzip-compressed, however long. */
    public static byte[] gzipped(List<Side> sides) {
        return gzipped(sides, Long.MAX_VALUE);
    }

    /**
     * The merged log, gzip-compressed to at most about {@code capBytes} (at least 128 KiB): past that its
     * lines are counted, and the count is its last line.
     */
    public static byte[] gzipped(List<Side> sides, long capBytes) {
        if (capBytes < 2 * DEFLATER_SLACK) {
            throw new IllegalArgumentException("a compressed log's cap is at least " + 2 * DEFLATER_SLACK + " bytes");
        }
        record Named(String name, PipeLog.Entry entry) {}
        List<Named> all = new ArrayList<>();
        for (Side side : sides) {
            side.entries().forEach(entry -> all.add(new Named(side.name(), entry)));
        }
        all.sort(Comparator.comparingLong(named -> named.entry().epochMicros())); // stable: an engine's order is kept
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (var out = new GZIPOutputStream(bytes)) {
            StringBuilder line = new StringBuilder();
            long written = 0;
            for (Named named : all) {
                if (bytes.size() + DEFLATER_SLACK > capBytes) {
                    out.write(("... " + (all.size() - written) + " more lines not kept: a game's log keeps about "
                                    + capBytes / 1024 + " KiB compressed\n")
                            .getBytes(StandardCharsets.UTF_8));
                    break;
                }
                long micros = named.entry().epochMicros();
                line.setLength(0);
                line.append(TIME.format(Instant.ofEpochSecond(
                                Math.floorDiv(micros, 1_000_000), Math.floorMod(micros, 1_000_000) * 1000L)))
                        .append(' ')
                        .append(named.name())
                        .append(
                                switch (named.entry().direction()) {
                                    case TO_ENGINE -> " > ";
                                    case FROM_ENGINE -> " < ";
                                    case NOTE -> " ! ";
                                })
                        .append(named.entry().text())
                        .append('\n');
                out.write(line.toString().getBytes(StandardCharsets.UTF_8));
                written++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory: does not happen
        }
        return bytes.toByteArray();
    }
}
