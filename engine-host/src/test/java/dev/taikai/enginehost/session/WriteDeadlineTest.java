package dev.taikai.enginehost.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.testkit.Await;
import dev.taikai.testkit.Leaks;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A write to an engine that reads none of its input blocks once the pipe is full. It had no deadline: a run
 * hung on it, and a Ctrl-C too, for the close's 'quit' waited behind the stuck write.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WriteDeadlineTest {
    @Test
    void aWriteToAnEngineThatReadsNothingStallsAndTheCloseStillEnds() throws Exception {
        Leaks leaks = Leaks.snapshot();
        EngineConnection engine = EngineConnection.start(
                EngineSpec.of("deaf", List.of("/bin/sh", "-c", "exec sleep 600")),
                line -> LineClassifier.Kind.OTHER,
                null);
        String lines = "x".repeat(1 << 20); // more than any pipe holds
        CompletableFuture<Optional<EngineFailure>> writing = CompletableFuture.supplyAsync(() -> engine.send(lines));
        // a close meanwhile (a Ctrl-C's) waits behind the stuck write, and ends with it
        Await.until(Duration.ofSeconds(30), "the write is under way", engine::writeUnderWay);
        CompletableFuture<Void> closing = CompletableFuture.runAsync(() -> engine.close("quit", 1000));
        long started = System.nanoTime();
        EngineFailure failure = writing.get(60, TimeUnit.SECONDS).orElseThrow();
        closing.get(60, TimeUnit.SECONDS);
        long took = (System.nanoTime() - started) / 1_000_000;
        assertEquals(EngineFailure.Kind.STALL, failure.kind(), failure.toString());
        assertTrue(failure.detail().startsWith("the engine read none of its input for 10000 ms"), failure.detail());
        assertTrue(took >= 9_000, "not before the deadline: " + took + " ms");
        assertFalse(engine.alive());
        leaks.assertNoProcessesLeft(Duration.ofSeconds(30));
    }
}
