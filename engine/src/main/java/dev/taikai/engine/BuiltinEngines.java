package dev.taikai.engine;

import dev.taikai.rules.Position;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command line that starts the built-in engine at a level, with this JVM and this classpath. */
public final class BuiltinEngines {
    /** Quick to start and small, so the engine fits the default address-space limit of engine processes. */
    private static final List<String> JVM_OPTIONS = List.of(
            "-XX:+UseSerialGC",
            "-Xshare:auto",
            "-Xmx128m",
            "-Xss1m",
            "-XX:ReservedCodeCacheSize=48m",
            "-XX:CompressedClassSpaceSize=32m",
            "-XX:MaxMetaspaceSize=64m");

    public static final int LEVELS = 4;

    private BuiltinEngines() {}

    public static List<String> command(int level) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        command.add("-cp");
        String engine = location(BuiltinEngine.class);
        String rules = location(Position.class);
        command.add(engine.equals(rules) ? engine : engine + File.pathSeparator + rules);
        command.add(BuiltinEngine.class.getName());
        command.add("--level");
        command.add(Integer.toString(level));
        return command;
    }

    private static String location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the classes of " + type.getName(), e);
        }
    }
}
