package dev.taikai.cli.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taikai.enginehost.config.ConfigException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How a run was started: the arguments of {@code taikai run} and the directory it ran in, kept in its
 * records folder as {@code invocation.json} so that {@code taikai run --resume DIR} starts it again with
 * the same settings and the same folder.
 */
public record Invocation(Path directory, List<String> args) {
    static final String FILE = "invocation.json";

    public Invocation {
        directory = directory.toAbsolutePath().normalize();
        args = List.copyOf(args);
    }

    /** The invocation of this process: its arguments, in the current directory. */
    public static Invocation here(List<String> args) {
        return new Invocation(Path.of(""), args);
    }

    /** The command that resumes the run in {@code folder}, ready to paste into a shell. */
    public static String resumeCommand(Path folder) {
        return Launcher.command() + " run --resume " + Launcher.shellWord(folder.toString());
    }

    /** True when {@code folder} keeps this same invocation (its arguments, in the same directory). */
    boolean sameAs(Path folder) {
        try {
            return of(folder).equals(this);
        } catch (ConfigException e) {
            return false; // none kept, or kept elsewhere
        }
    }

    /** Writes {@code invocation.json} into {@code folder}. */
    void writeTo(Path folder) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode json = mapper.createObjectNode();
        json.put("directory", directory.toString());
        args.forEach(json.putArray("args")::add);
        Files.writeString(
                folder.resolve(FILE),
                mapper.writerWithDefaultPrettyPrinter().writeValueAsString(json) + "\n",
                StandardCharsets.UTF_8);
    }

    /**
     * The invocation kept in {@code folder}, checked against where this process runs: relative paths in
     * the arguments mean what they meant only in the directory the run started in.
     */
    public static Invocation of(Path folder) throws ConfigException {
        JsonNode json;
        try {
            json = new ObjectMapper().readTree(Files.readString(folder.resolve(FILE), StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            throw new ConfigException(
                    folder + " holds no run to resume (no " + FILE + "; is it a records folder of" + " taikai run?)");
        } catch (IOException e) {
            throw new ConfigException("cannot read " + folder.resolve(FILE) + ": " + e.getMessage());
        }
        if (json == null
                || !json.path("directory").isTextual()
                || !json.path("args").isArray()) {
            throw new ConfigException(folder.resolve(FILE) + " is not an invocation written by taikai run");
        }
        List<String> args = new ArrayList<>();
        json.get("args").forEach(arg -> args.add(arg.asText()));
        Invocation kept = new Invocation(Path.of(json.get("directory").asText()), args);
        Path here = Path.of("").toAbsolutePath().normalize();
        if (!kept.directory().equals(here)) {
            throw new ConfigException("the run in " + folder + " was started in " + kept.directory()
                    + "; resume it from there (its paths are relative to it)");
        }
        return kept;
    }
}
