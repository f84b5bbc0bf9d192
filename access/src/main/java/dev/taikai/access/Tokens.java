package dev.taikai.access;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Bearer tokens and who holds them, read from a tokens file that stores only their SHA-256 hashes, one
 * per line: {@code sha256:<64 hex digits> <role> <name>}; {@code #} starts a comment. Removing a line
 * revokes its token: the file is read again when it changes (checked at most twice a second). A changed
 * file with lines that do not read puts its other lines in force and reports the bad ones (a typo made
 * while revoking a token never keeps the revoked one); a file that cannot be read at all (gone, or over
 * {@link #MAX_BYTES}) keeps the tokens it last had while the error is reported.
 */
public final class Tokens {
    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(Tokens.class.getName());

    /** A tokens file that cannot be used: the message names the file and line. */
    public static final class Invalid extends Exception {
        public Invalid(String message) {
            super(message);
        }
    }

    private static final long CHECK_EVERY_NANOS = 500_000_000L;
    /** A tokens file is read whole on every change; some 40,000 tokens fit. */
    static final long MAX_BYTES = 4L << 20;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path file;
    private volatile Map<String, Caller> byHash;
    /** The file's modification time and size when it was read: either changing means it was rewritten. */
    private volatile Stamp readAt;

    private volatile long checkedAt;
    private volatile String problem;

    private record Stamp(FileTime modified, long size) {
        static Stamp of(Path file) throws IOException {
            return new Stamp(Files.getLastModifiedTime(file), Files.size(file));
        }
    }

    private Tokens(Path file, Map<String, Caller> byHash, Stamp readAt) {
        this.file = file;
        this.byHash = byHash;
        this.readAt = readAt;
        this.checkedAt = System.nanoTime();
    }

    /** Reads {@code file}, refusing it whole for any line that does not read; later changes are picked up by {@link #authenticate}. */
    public static Tokens read(Path file) throws Invalid {
        try {
            Stamp stamp = Stamp.of(file);
            return new Tokens(file, parse(file, lines(file, stamp)), stamp);
        } catch (IOException e) {
            throw new Invalid(unreadable(file, e));
        }
    }

    /** The file's lines, refused unread when its size, as {@code stamp} has it, is over {@link #MAX_BYTES}. */
    private static List<String> lines(Path file, Stamp stamp) throws IOException {
        if (stamp.size() > MAX_BYTES) {
            throw new IOException(
                    "it is " + stamp.size() + " bytes, over the " + MAX_BYTES + " a tokens file may have");
        }
        return Files.readAllLines(file, StandardCharsets.UTF_8);
    }

    private static String unreadable(Path file, IOException e) {
        String why = e instanceof java.nio.file.NoSuchFileException
                ? "there is no such file"
                : e instanceof java.nio.file.AccessDeniedException ? "permission denied" : e.getMessage();
        return "cannot read the tokens file " + file + ": " + why;
    }

    /** The caller a bearer token belongs to, if it is one of the file's. */
    public Optional<Caller> authenticate(String token) {
        refreshIfChanged();
        if (token == null || token.isEmpty() || token.length() > 1024) {
            return Optional.empty();
        }
        return Optional.ofNullable(byHash.get(hash(token)));
    }

    /** The caller of the token whose hash is {@code tokenHash}, while the file lists it (a session's check). */
    public Optional<Caller> byHash(String tokenHash) {
        refreshIfChanged();
        return Optional.ofNullable(byHash.get(tokenHash));
    }

    /** The last error reading the file again, or null; the tokens read before it stay in force. */
    public String problem() {
        return problem;
    }

    public int size() {
        return byHash.size();
    }

    private void refreshIfChanged() {
        long now = System.nanoTime();
        if (now - checkedAt < CHECK_EVERY_NANOS) {
            return;
        }
        checkedAt = now;
        String found;
        try {
            Stamp stamp = Stamp.of(file);
            if (stamp.equals(readAt)) {
                return;
            }
            Parsed parsed = parseLines(file, lines(file, stamp));
            byHash = parsed.callers();
            readAt = stamp;
            found = parsed.problems().isEmpty()
                    ? null
                    : String.join("; ", parsed.problems()) + "; "
                            + (parsed.problems().size() == 1 ? "that line is" : "those lines are")
                            + " skipped (a token on it is refused), the " + byHash.size() + " tokens of the other"
                            + " lines are in force";
        } catch (IOException e) {
            found = unreadable(file, e) + "; the " + byHash.size() + " tokens read before stay in force";
        }
        if (found == null && problem != null) {
            LOG.info("the tokens file " + file + " reads again: " + byHash.size() + " tokens in force");
        } else if (found != null && !found.equals(problem)) { // once a problem, not once a check
            LOG.warning(found);
        }
        problem = found;
    }

    /** The tokens of the lines that read, and what is wrong with each line that does not (never the line itself). */
    private record Parsed(Map<String, Caller> callers, List<String> problems) {}

    /** The file's tokens; any line that does not read refuses the file, naming the file and that line. */
    static Map<String, Caller> parse(Path file, List<String> lines) throws Invalid {
        Parsed parsed = parseLines(file, lines);
        if (!parsed.problems().isEmpty()) {
            throw new Invalid(parsed.problems().get(0));
        }
        return parsed.callers();
    }

    private static Parsed parseLines(Path file, List<String> lines) {
        Map<String, Caller> callers = new HashMap<>();
        List<String> problems = new java.util.ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String where = file + ":" + (i + 1) + ": ";
            String[] words = line.split("\\s+");
            Optional<Role> role = words.length == 3 ? Role.byId(words[1]) : Optional.empty();
            if (words.length != 3) {
                problems.add(where + "expected 'sha256:<hash> <role> <name>', found " + words.length
                        + (words.length == 1 ? " word" : " words"));
            } else if (!words[0].matches("sha256:[0-9a-f]{64}")) {
                problems.add(where + "the hash must be 'sha256:' and 64 lowercase hex digits (never the token)");
            } else if (role.isEmpty()) {
                // the word is not quoted: a token pasted there would be logged
                problems.add(where + "the second word is not a role (admin, referee, worker, viewer)");
            } else if (callers.putIfAbsent(words[0].substring("sha256:".length()), new Caller(words[2], role.get()))
                    != null) {
                problems.add(where + "the same token is listed twice");
            }
        }
        return new Parsed(Map.copyOf(callers), List.copyOf(problems));
    }

    /** The hex SHA-256 of a token, as the tokens file stores it. */
    public static String hash(String token) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /** A new random token: 32 bytes from a secure random source, base64url without padding. */
    public static String newToken() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The tokens-file line for {@code token}. */
    public static String line(String token, Role role, String name) {
        if (!name.matches("[A-Za-z0-9._@-]+")) {
            throw new IllegalArgumentException("a token's name is letters, digits and . _ @ - only: '" + name + "'");
        }
        return "sha256:" + hash(token) + " " + role.id() + " " + name;
    }
}
