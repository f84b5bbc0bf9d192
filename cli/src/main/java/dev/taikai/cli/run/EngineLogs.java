package dev.taikai.cli.run;

import dev.taikai.enginehost.usi.EngineFailure;
import dev.taikai.enginehost.usi.PipeLog;
import dev.taikai.enginehost.usi.UsiEngine;
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
 * A game's engine log ({@code taikai run -log}): the lines to and from both engines, taken from their
 * {@link PipeLog}s when the game ends, merged in the order they crossed the pipes, one a line: {@code
 * 2026-12-02T18:00:00.123456Z fsf-a > go btime 1000 wtime 1000 byoyomi 100} ({@code >} to the engine,
 * {@code <} from it, {@code !} Taikai's note, such as a failed engine's standard error). The lines of an
 * engine's start are in the log of its first game; those between games in the next game's. Without
 * {@code -log}, a game in which an engine failed still gets a log: that engine's standard error tail.
 */
final class EngineLogs {
    /** Microseconds since the epoch minus {@link System#nanoTime} in microseconds, taken once. */
    private static final long WALL_MINUS_NANO_MICROS = System.currentTimeMillis() * 1000 - System.nanoTime() / 1000;

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    private EngineLogs() {}

    /** One engine's entries with the name the game gives it. */
    record Side(String name, List<PipeLog.Entry> entries) {}

    /**
     * Takes the game's lines from the engine's log, if it keeps one; a failed engine's standard error tail
     * is added as notes, log or no log.
     */
    static Side side(String entrant, UsiEngine engine) {
        List<PipeLog.Entry> entries =
                new ArrayList<>(engine.pipeLog().map(PipeLog::take).orElse(List.of()));
        if (engine.failure().isPresent()) {
            entries.addAll(stderr(engine.stderrTail()));
        }
        return new Side(entrant, entries);
    }

    /** An engine that failed to start: its standard error tail. */
    static Side failedStart(String entrant, EngineFailure failure) {
        return new Side(entrant, stderr(failure.stderrTail()));
    }

    private static List<PipeLog.Entry> stderr(List<String> lines) {
        long now = System.nanoTime();
        return lines.stream()
                .map(line -> new PipeLog.Entry(now, PipeLog.Direction.NOTE, "stderr: " + line))
                .toList();
    }

    /** Whether there is anything to write. */
    static boolean any(List<Side> sides) {
        return sides.stream().anyMatch(side -> !side.entries().isEmpty());
    }

    /** The merged log, gzip-compressed. */
    static byte[] gzipped(List<Side> sides) {
        record Named(String name, PipeLog.Entry entry) {}
        List<Named> all = new ArrayList<>();
        for (Side side : sides) {
            side.entries().forEach(entry -> all.add(new Named(side.name(), entry)));
        }
        all.sort(Comparator.comparingLong(named -> named.entry().nanos())); // stable: an engine's order is kept
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (var out = new GZIPOutputStream(bytes)) {
            StringBuilder line = new StringBuilder();
            for (Named named : all) {
                long micros = WALL_MINUS_NANO_MICROS + named.entry().nanos() / 1000;
                line.setLength(0);
                line.append(TIME.format(Instant.ofEpochSecond(micros / 1_000_000, micros % 1_000_000 * 1000)))
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
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory: does not happen
        }
        return bytes.toByteArray();
    }
}
