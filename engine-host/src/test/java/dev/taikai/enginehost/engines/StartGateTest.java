package dev.taikai.enginehost.engines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.enginehost.session.LocalEngine;
import dev.taikai.enginehost.session.StartResult;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.rules.Variant;
import dev.taikai.testkit.Await;
import dev.taikai.testkit.LightEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StartGateTest {
    private static final Duration WITHIN = Duration.ofSeconds(30);

    @Test
    void atMostItsPermitsStartAtOnce() throws Exception {
        StartGate gate = new StartGate(2, 60_000, 60_000);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<Integer>> starts = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            starts.add(CompletableFuture.supplyAsync(() -> gate.through(() -> {
                most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                await(go);
                inside.decrementAndGet();
                return 1;
            })));
        }
        Await.until(WITHIN, "two starts in, four waiting", () -> gate.holding() == 2 && gate.waiting() == 4);
        go.countDown();
        assertEquals(6, starts.stream().mapToInt(CompletableFuture::join).sum());
        assertEquals(2, most.get(), "starts at once");
        assertEquals(0, gate.holding());
    }

    /** An engine that never answers waits out its deadline; it holds the others up only for its turn. */
    @Test
    void aStartStillBusyAfterItsTurnLetsTheNextOneIn() throws Exception {
        StartGate gate = new StartGate(1, 100, 60_000);
        CountDownLatch slowMayEnd = new CountDownLatch(1);
        CompletableFuture<String> slow = CompletableFuture.supplyAsync(() -> gate.through(() -> {
            await(slowMayEnd);
            return "slow";
        }));
        Await.until(WITHIN, "the slow start holds its turn", () -> gate.holding() == 1);
        assertEquals("next", gate.through(() -> "next"), "started while the slow one still runs");
        slowMayEnd.countDown();
        assertEquals("slow", slow.get(30, TimeUnit.SECONDS));
    }

    /** A caller with a deadline of its own (the referee's for a worker's start) is not kept past the gate's wait. */
    @Test
    void aStartThatWaitedItsLongestGoesAheadWithoutATurn() throws Exception {
        StartGate gate = new StartGate(1, 60_000, 50);
        CountDownLatch firstMayEnd = new CountDownLatch(1);
        CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> gate.through(() -> {
            await(firstMayEnd);
            return "first";
        }));
        Await.until(WITHIN, "the first start holds the only turn", () -> gate.holding() == 1);
        assertEquals("second", gate.through(() -> "second"));
        firstMayEnd.countDown();
        assertEquals("first", first.get(30, TimeUnit.SECONDS));
    }

    /**
     * Engines that compute for 400 ms before their handshake, ten started at once on this host, all start
     * within a handshake deadline of 1.5 s: together they took two cores for 2 s, and each missed it.
     */
    @Test
    void enginesThatComputeToStartAllStartWhenStartedAtOnce() {
        EngineSpec spec = EngineSpec.of("slow-start", LightEngine.command("--start-cpu-ms", "400"));
        Timeouts quick = Timeouts.DEFAULT.withStartup(Duration.ofMillis(1_500), Duration.ofMillis(1_500));
        List<CompletableFuture<StartResult>> starts = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            starts.add(CompletableFuture.supplyAsync(() -> Engines.start(spec, Variant.MINISHOGI, quick)));
        }
        assertEquals(List.of(), failures(starts));
    }

    /**
     * Engines that waited for a CPU past their handshake deadline (ten computing 400 ms each, started at once
     * without a gate) are not charged for the wait: a deadline is moved by the time the engine waited.
     */
    @Test
    void anEngineThatWaitedForACpuIsNotChargedForTheWait() {
        EngineSpec spec = EngineSpec.of("slow-start", LightEngine.command("--start-cpu-ms", "400"));
        Timeouts quick = Timeouts.DEFAULT.withStartup(Duration.ofMillis(3_000), Duration.ofMillis(3_000));
        StartGate none = new StartGate(10, 60_000, 60_000);
        List<CompletableFuture<StartResult>> starts = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            starts.add(CompletableFuture.supplyAsync(() -> Engines.start(none, spec, Variant.MINISHOGI, quick, null)));
        }
        assertEquals(List.of(), failures(starts));
    }

    /** A start that stalls while others wait their turn is tried once more, and the record says both. */
    @Test
    void aStartThatStallsOnABusyHostIsTriedAgain() {
        EngineSpec spec = EngineSpec.of("stuck", LightEngine.command("--no-usiok"));
        Timeouts quick = Timeouts.DEFAULT.withStartup(Duration.ofMillis(500), Duration.ofMillis(500));
        StartGate gate = new StartGate(1, 60_000, 60_000);
        List<CompletableFuture<StartResult>> starts = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            starts.add(CompletableFuture.supplyAsync(() -> Engines.start(gate, spec, Variant.MINISHOGI, quick, null)));
        }
        List<String> failures = failures(starts);
        assertEquals(2, failures.size(), failures.toString());
        assertTrue(
                failures.stream()
                        .anyMatch(f -> f.startsWith("stall: no usiok within 500 ms of starting")
                                && f.contains("(the second start; the first, on a busy host: no usiok within 500 ms")),
                failures.toString());
    }

    private static List<String> failures(List<CompletableFuture<StartResult>> starts) {
        List<String> failures = new ArrayList<>();
        for (CompletableFuture<StartResult> start : starts) {
            StartResult result = start.join();
            if (result instanceof EngineFailure failure) {
                failures.add(failure.toString());
            } else {
                ((LocalEngine) result).close();
            }
        }
        return failures;
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(60, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
