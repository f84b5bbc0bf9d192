package dev.taikai.cli.run;

/** What a command that ran out of Java heap says: how much it had, and how to give it more. */
public final class OutOfMemory {
    private OutOfMemory() {}

    public static String message() {
        return "out of memory: the Java heap's " + Runtime.getRuntime().maxMemory() / (1024 * 1024)
                + " MB are used up; give it more with TAIKAI_JAVA_OPTS, for example"
                + " TAIKAI_JAVA_OPTS='-XX:+UseSerialGC -Xmx8g' " + Launcher.command() + " ...";
    }
}
