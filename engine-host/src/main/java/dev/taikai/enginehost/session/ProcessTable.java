package dev.taikai.enginehost.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The live processes of an engine, read from Linux's {@code /proc}: the members of its process group
 * (engines start in their own session, so the group is the engine and everything it forked) and its
 * descendants. Zombies, which hold no resources, do not count as live.
 */
public final class ProcessTable {
    private static final Path PROC = Path.of("/proc");

    private ProcessTable() {}

    /** Live processes in process group {@code groupId} or descended from {@code rootPid}, the root included. */
    public static List<Long> liveProcessesOf(long rootPid, long groupId) {
        List<Long> result = new ArrayList<>();
        ProcessHandle.of(rootPid).ifPresent(root -> {
            if (isLive(root.pid())) {
                result.add(root.pid());
            }
            root.descendants()
                    .map(ProcessHandle::pid)
                    .filter(ProcessTable::isLive)
                    .forEach(result::add);
        });
        if (Files.isDirectory(PROC)) {
            try (Stream<Path> entries = Files.list(PROC)) {
                entries.map(p -> p.getFileName().toString())
                        .filter(name -> name.chars().allMatch(Character::isDigit))
                        .map(Long::parseLong)
                        .filter(pid -> !result.contains(pid) && processGroup(pid) == groupId && isLive(pid))
                        .forEach(result::add);
            } catch (IOException | RuntimeException e) {
                // /proc changes while it is listed; what was read is still right
            }
        }
        return result;
    }

    /** The process group of {@code pid}, or −1 when it is gone or unreadable. */
    public static long processGroup(long pid) {
        String[] fields = statFields(pid);
        return fields.length > 2 ? Long.parseLong(fields[2]) : -1;
    }

    /** The session of {@code pid}, or −1 when it is gone or unreadable. */
    public static long session(long pid) {
        String[] fields = statFields(pid);
        return fields.length > 3 ? Long.parseLong(fields[3]) : -1;
    }

    /** True unless the process is gone, a zombie or dead. */
    static boolean isLive(long pid) {
        String[] fields = statFields(pid);
        if (fields.length == 0) {
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        }
        return !fields[0].equals("Z") && !fields[0].equals("X");
    }

    /** The fields of /proc/pid/stat after the command name: state, ppid, pgrp, ... (empty when unreadable). */
    private static String[] statFields(long pid) {
        try {
            String stat = Files.readString(PROC.resolve(pid + "/stat"), StandardCharsets.US_ASCII);
            return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        } catch (IOException | RuntimeException e) {
            return new String[0];
        }
    }
}
