package dev.taikai.cli;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** One in-process run of the command line: exit code, standard output and standard error. */
record CliRun(int exitCode, String out, String err) {
    static CliRun withInput(String stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Taikai.run(
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintWriter(out),
                new PrintWriter(err),
                args);
        return new CliRun(code, out.toString(), err.toString());
    }

    static CliRun of(String... args) {
        return withInput("", args);
    }

    List<String> outLines() {
        return out.isEmpty() ? List.of() : Arrays.asList(out.split("\n"));
    }
}
