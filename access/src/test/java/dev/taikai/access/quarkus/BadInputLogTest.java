package dev.taikai.access.quarkus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.taikai.testkit.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A kind of warning is written at most once an interval; the last one left out in it is written when it
 * ends, with how many more were. Before, only the next line written said how many, so a line left out last
 * (an unreadable Kafka message, say) was never told of.
 */
class BadInputLogTest {
    private static final Duration WITHIN = Duration.ofSeconds(30);

    @Test
    void theLastLineLeftOutInAnIntervalIsWrittenWhenItEndsWithHowManyMoreWere() {
        List<String> written = new CopyOnWriteArrayList<>();
        BadInputLog log = new BadInputLog(1_000, written::add);
        log.write("poison", "offset 1: unreadable");
        log.write("poison", "offset 2: unreadable");
        log.write("poison", "offset 3:\nunreadable");
        log.write("other", "only one");
        log.write("other", "left out, alone");
        assertEquals(List.of("offset 1: unreadable", "only one"), written, "nothing more within the interval");
        Await.until(WITHIN, "the interval's end", () -> written.size() == 4, written::toString);
        assertEquals(
                java.util.Set.of("offset 3: unreadable (and 1 more like it in 1 s, not logged)", "left out, alone"),
                java.util.Set.copyOf(written.subList(2, 4)),
                "each kind's last line left out, as its interval ends");
    }
}
