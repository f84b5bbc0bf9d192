package dev.taikai.enginehost.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The live processes of an engine, read from Linux's {@code /proc}: the members of its process group
 * (engines start in their own session, so the group is the engine and everything it forked), its
 * descendants, and the processes that hold its output's pipes. Zombies, which hold no resources, do not
 * count as live.
 */
public final class ProcessTable {
    private static final Path PROC = Path.of("/proc");

    private ProcessTable() {}

    /**
     * Live processes in process group {@code groupId} or descended from {@code rootPid}, the root included;
     * −1 for either: none.
     */
    public static List<Long> liveProcessesOf(long rootPid, long groupId) {
        return liveProcessesOf(rootPid, groupId, Set.of());
    }

    /**
     * As {@link #liveProcessesOf(long, long)}, and the processes, this one excepted, that hold one of {@code
     * pipes} open ({@link #outputPipes}): an engine's helper that left its process group (a double fork and
     * {@code setsid}) and kept the engine's output, whose end of the pipe keeps that output from closing.
     *
     * <p>A child of this process still in this process's group that holds one of {@code pipes} is not the
     * engine's: it is a program being started, which holds a copy of every descriptor of this process (the
     * engine's pipes among them) from its fork until it closes them before its exec. Killing it would kill
     * another engine's start. No process of an engine is in this group: the engine starts in a session of
     * its own ({@code setsid}, where util-linux has it), and a process cannot join a group of another
     * session.
     */
    public static List<Long> liveProcessesOf(long rootPid, long groupId, Set<String> pipes) {
        List<Long> result = new ArrayList<>();
        Optional<ProcessHandle> rootHandle = rootPid > 0 ? ProcessHandle.of(rootPid) : Optional.empty();
        rootHandle.ifPresent(root -> {
            if (isLive(root.pid())) {
                result.add(root.pid());
            }
            root.descendants()
                    .map(ProcessHandle::pid)
                    .filter(ProcessTable::isLive)
                    .forEach(result::add);
        });
        if (Files.isDirectory(PROC)) {
            long self = ProcessHandle.current().pid();
            try (Stream<Path> entries = Files.list(PROC)) {
                entries.map(p -> p.getFileName().toString())
                        .filter(name -> name.chars().allMatch(Character::isDigit))
                        .map(Long::parseLong)
                        .filter(pid -> !result.contains(pid)
                                && ((groupId > 0 && processGroup(pid) == groupId)
                                        || (pid != self && holds(pid, pipes) && !beingStarted(pid, self)))
                                && isLive(pid))
                        .forEach(result::add);
            } catch (IOException | RuntimeException e) {
                // /proc changes while it is listed; what was read is still right
            }
        }
        return result;
    }

    /**
     * The pipes that {@code pid}'s standard output and error go to, as /proc names them ({@code
     * pipe:[12345]}); empty when they are not pipes or cannot be read (the process is gone).
     */
    public static Set<String> outputPipes(long pid) {
        Set<String> pipes = new HashSet<>();
        for (int fd : new int[] {1, 2}) {
            try {
                String target =
                        Files.readSymbolicLink(PROC.resolve(pid + "/fd/" + fd)).toString();
                if (target.startsWith("pipe:")) {
                    pipes.add(target);
                }
            } catch (IOException | RuntimeException e) {
                // gone, or not ours to read
            }
        }
        return pipes;
    }

    /** True when {@code pid} has one of {@code pipes} open; false for none, or a process gone or another user's. */
    private static boolean holds(long pid, Set<String> pipes) {
        if (pipes.isEmpty()) {
            return false;
        }
        try (Stream<Path> open = Files.list(PROC.resolve(pid + "/fd"))) {
            for (Path fd : open.toList()) {
                try {
                    if (pipes.contains(Files.readSymbolicLink(fd).toString())) {
                        return true;
                    }
                } catch (IOException | RuntimeException e) {
                    // closed while listed
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone, or another user's
        }
        return false;
    }

    /** Whether {@code pid} is a child of {@code self} (this process) in this process's group. */
    private static boolean beingStarted(long pid, long self) {
        String[] fields = statFields(pid);
        return fields.length > 2
                && Long.parseLong(fields[1]) == self
                && Long.parseLong(fields[2]) == processGroup(self);
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
