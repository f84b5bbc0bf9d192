package dev.taikai.bench;

import dev.taikai.rules.MoveException;
import dev.taikai.rules.Perft;
import dev.taikai.rules.Position;
import dev.taikai.rules.Sfen;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The rules core's hot operations over a fixed sample of positions from seeded random games: what
 * the referee does for every move (generate, play, read the engine's move, print the position).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-XX:+UseSerialGC", "-Xmn32m"})
public class RulesBenchmark {
    private static final int SAMPLE = 1024;

    @Param({"minishogi", "kyotoshogi"})
    public String variant;

    private Position[] positions;
    private String[] sfens;
    private String[] moveTexts;
    private int[] moves;
    private int next;

    @Setup
    public void sample() {
        Variant v = Variant.byName(variant).orElseThrow();
        Random random = new Random(2026);
        List<Position> sampled = new ArrayList<>();
        while (sampled.size() < SAMPLE) {
            Position position = Position.start(v);
            for (int ply = 0; ply < 80 && sampled.size() < SAMPLE; ply++) {
                int[] legal = position.legalMoves();
                if (legal.length == 0) {
                    break;
                }
                sampled.add(position);
                position = position.play(legal[random.nextInt(legal.length)]);
            }
        }
        positions = sampled.toArray(new Position[0]);
        sfens = new String[SAMPLE];
        moveTexts = new String[SAMPLE];
        moves = new int[SAMPLE];
        for (int i = 0; i < SAMPLE; i++) {
            sfens[i] = positions[i].toSfen();
            int[] legal = positions[i].legalMoves();
            moves[i] = legal[random.nextInt(legal.length)];
            moveTexts[i] = Usi.format(moves[i], v);
        }
    }

    private int index() {
        next = (next + 1) & (SAMPLE - 1);
        return next;
    }

    /** All legal moves of a position. */
    @Benchmark
    public int[] legalMoves() {
        return positions[index()].legalMoves();
    }

    /** The position after one move. */
    @Benchmark
    public Position play() {
        int i = index();
        return positions[i].play(moves[i]);
    }

    /** An engine's move text checked and turned into a move, as the referee does for every bestmove. */
    @Benchmark
    public int parseUsiMove() throws MoveException {
        int i = index();
        return Usi.parse(positions[i], moveTexts[i]);
    }

    @Benchmark
    public Position parseSfen() throws Exception {
        return Sfen.parse(positions[0].variant(), sfens[index()]);
    }

    @Benchmark
    public String printSfen() {
        return positions[index()].toSfen();
    }

    /** Perft 4 from the start position: bulk counting over about 10^4 to 10^5 nodes. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void perft4(Blackhole blackhole) {
        blackhole.consume(Perft.count(positions[0], 4));
    }
}
