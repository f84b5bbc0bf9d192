package dev.taikai.rules;

/** The two players. Sente moves first from the standard start and sits at the bottom (ranks d–e). */
public enum Color {
    SENTE('b'),
    GOTE('w');

    private final char sfenLetter;

    Color(char sfenLetter) {
        this.sfenLetter = sfenLetter;
    }

    /** 0 for sente, 1 for gote: the index used in every per-colour table. */
    public int index() {
        return ordinal();
    }

    public Color opposite() {
        return this == SENTE ? GOTE : SENTE;
    }

    /** {@code b} or {@code w}, as in SFEN. */
    public char sfenLetter() {
        return sfenLetter;
    }

    public static Color of(int index) {
        return index == 0 ? SENTE : GOTE;
    }

    /** Lower-case name as used in records and messages ("sente", "gote"). */
    public String displayName() {
        return this == SENTE ? "sente" : "gote";
    }
}
