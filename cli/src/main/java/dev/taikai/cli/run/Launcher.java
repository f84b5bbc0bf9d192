package dev.taikai.cli.run;

/**
 * How the user starts Taikai, for the commands a message asks them to type (resume, fetch, cluster up):
 * the launcher script passes its path as the user typed it ({@code $0}) in the system property {@code
 * taikai.command}; without it (a test, {@code java -jar}) the project's {@code ./taikai}.
 */
public final class Launcher {
    private Launcher() {}

    /** The launcher, as a word a shell takes whole. */
    public static String command() {
        return shellWord(System.getProperty("taikai.command", "./taikai"));
    }

    /** {@code word} as a shell reads it back: as it is when it holds no special character, else quoted. */
    public static String shellWord(String word) {
        return word.matches("[A-Za-z0-9_./@%+=:,-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
    }
}
