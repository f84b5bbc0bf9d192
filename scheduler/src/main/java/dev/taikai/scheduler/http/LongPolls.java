package dev.taikai.scheduler.http;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The long polls in progress ({@code games?wait-ms=}), bounded per caller and in all. A waiting poll
 * holds no thread (it is a future the book completes when a record is counted), so one viewer opening
 * hundreds of polls is refused ({@code 429}) beyond its share and cannot slow anyone else's requests.
 */
final class LongPolls {
    /** Long polls one caller may have open at once. */
    static final int PER_CALLER = 8;
    /** Long polls open at once in all. */
    static final int IN_ALL = 1024;

    /** Open polls per caller; a caller with none has no entry. Changed only through compute, so exact. */
    private final Map<String, Integer> open = new ConcurrentHashMap<>();

    private final AtomicInteger total = new AtomicInteger();

    /** A place for one more poll of {@code caller}, or why not; give it back with {@link #release}. */
    Optional<String> admit(String caller) {
        boolean[] admitted = {false};
        open.compute(caller, (name, polls) -> {
            int now = polls == null ? 0 : polls;
            if (now >= PER_CALLER) {
                return polls;
            }
            admitted[0] = true;
            return now + 1;
        });
        if (!admitted[0]) {
            return Optional.of("'" + caller + "' has " + PER_CALLER + " long polls open already (at most " + PER_CALLER
                    + " per caller); wait for one to answer, or ask without wait-ms");
        }
        if (total.incrementAndGet() > IN_ALL) {
            total.decrementAndGet();
            open.computeIfPresent(caller, (name, polls) -> polls <= 1 ? null : polls - 1);
            return Optional.of("the scheduler has " + IN_ALL + " long polls open already; ask again shortly");
        }
        return Optional.empty();
    }

    void release(String caller) {
        total.decrementAndGet();
        open.computeIfPresent(caller, (name, polls) -> polls <= 1 ? null : polls - 1);
    }
}
