package dev.taikai.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded random legal games for property tests: the same seed gives the same games on every run, and a
 * failure names the seed and ply that reproduce it.
 */
final class RandomGames {
    static final long MASTER_SEED = 0x7A1CA1_2026L;

    /** Called with every position of every game. */
    interface Check {
        void check(Position position, String where) throws Exception;
    }

    private RandomGames() {}

    /** Plays {@code games} random games of at most {@code maxPlies} from the start and checks every position. */
    static int forEachPosition(Variant variant, int games, int maxPlies, Check check) throws Exception {
        int positions = 0;
        for (int game = 0; game < games; game++) {
            long seed = MASTER_SEED + 1_000_003L * game + variant.name().hashCode();
            Random random = new Random(seed);
            Position position = Position.start(variant);
            List<String> moves = new ArrayList<>();
            for (int ply = 0; ; ply++) {
                check.check(position, variant + " game seed " + seed + " after moves " + moves + " (" + position + ")");
                positions++;
                int[] legal = position.legalMoves();
                if (legal.length == 0 || ply == maxPlies) {
                    break;
                }
                int move = legal[random.nextInt(legal.length)];
                moves.add(Usi.format(move, variant));
                position = position.play(move);
            }
        }
        return positions;
    }
}
