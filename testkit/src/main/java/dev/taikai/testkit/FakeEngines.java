package dev.taikai.testkit;

import dev.taikai.rules.Position;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Command lines that start {@link FakeEngine} as its own process, for tests and engine checks. */
public final class FakeEngines {
    /** JVM options for a fake engine: quick to start, small in memory and address space. */
    private static final List<String> JVM_OPTIONS = List.of(
            "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC",
            "-Xshare:auto",
            "-Xmx64m",
            "-Xss512k",
            "-XX:ReservedCodeCacheSize=32m",
            "-XX:CompressedClassSpaceSize=32m",
            "-XX:MaxMetaspaceSize=64m");

    private FakeEngines() {}

    /** {@code java ... dev.taikai.testkit.FakeEngine <switches>} with this JVM and the testkit's classpath. */
    /** The fake engine's usage text: every switch with what it does. */
    public static String usage() {
        return FakeEngineSwitches.USAGE;
    }

    public static List<String> command(String... switches) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        command.add("-cp");
        command.add(location(FakeEngine.class) + File.pathSeparator + location(Position.class));
        command.add(FakeEngine.class.getName());
        command.addAll(List.of(switches));
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
