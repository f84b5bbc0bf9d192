package dev.taikai.enginehost.check;

import dev.taikai.rules.Variant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The outcome of an engine check: one line per check, and whether every required check passed. */
public final class CheckReport {
    public enum Verdict {
        PASS,
        WARN,
        FAIL,
        SKIP
    }

    /** One check: its verdict, what was seen, and whether a FAIL here fails the whole check. */
    public record Result(String name, Verdict verdict, String detail, boolean required) {}

    private final String engine;
    private final Variant variant;
    private final List<Result> results = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    CheckReport(String engine, Variant variant) {
        this.engine = engine;
        this.variant = variant;
    }

    Result add(String name, Verdict verdict, String detail, boolean required) {
        Result result = new Result(name, verdict, detail, required);
        results.add(result);
        return result;
    }

    void note(String text) {
        notes.add(text);
    }

    public List<Result> results() {
        return List.copyOf(results);
    }

    /** Measurements that are not pass/fail: handshake time, per-move overhead. */
    public List<String> notes() {
        return List.copyOf(notes);
    }

    public boolean passed() {
        return results.stream().noneMatch(r -> r.required() && r.verdict() == Verdict.FAIL);
    }

    public Result result(String name) {
        return results.stream()
                .filter(r -> r.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no check named " + name));
    }

    /** One line for a result, as the report prints it. */
    public static String line(Result result) {
        return String.format(
                Locale.ROOT,
                "%-4s  %-24s %s%s",
                result.verdict(),
                result.name(),
                result.detail(),
                result.required() || result.verdict() != Verdict.FAIL ? "" : " (optional)");
    }

    public String render() {
        StringBuilder out = new StringBuilder();
        out.append("Engine check of ")
                .append(engine)
                .append(", ")
                .append(variant.name())
                .append('\n');
        for (Result result : results) {
            out.append(line(result)).append('\n');
        }
        for (String note : notes) {
            out.append("      ").append(note).append('\n');
        }
        long failed = results.stream()
                .filter(r -> r.required() && r.verdict() == Verdict.FAIL)
                .count();
        long warnings =
                results.stream().filter(r -> r.verdict() == Verdict.WARN).count();
        out.append(
                passed()
                        ? "Result: PASS"
                        : "Result: FAIL (" + failed + " required check" + (failed == 1 ? "" : "s") + " failed)");
        if (warnings > 0) {
            out.append(", ").append(warnings).append(" warning").append(warnings == 1 ? "" : "s");
        }
        return out.append('\n').toString();
    }
}
