package dev.taikai.cli.run;

/** A count with its noun in the right number: {@code 1 ply}, {@code 2 plies}, {@code 1 game}. */
public final class Plural {
    private Plural() {}

    public static String of(long count, String one, String many) {
        return count + " " + (count == 1 ? one : many);
    }

    public static String plies(long count) {
        return of(count, "ply", "plies");
    }

    public static String games(long count) {
        return of(count, "game", "games");
    }
}
