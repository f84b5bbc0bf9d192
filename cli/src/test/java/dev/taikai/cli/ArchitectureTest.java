package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The house as ARCHITECTURE.md draws it, as a declarative rule set (import-control.txt beside this test,
 * in the manner of Kafka's import-control): every package of every module's main sources may use only
 * what its rule lists, so the cores stay plain and nothing imports back up; and the command line carries
 * no service framework.
 */
class ArchitectureTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?([\\w.]+);", Pattern.MULTILINE);
    /** A fully qualified name in the code: a lower-case dotted package, then a type. */
    private static final Pattern QUALIFIED = Pattern.compile(
            "(?<![\\w.\"])((?:dev|io|org|com|jakarta|grpc|picocli)\\.[a-z][\\w]*(?:\\.[a-z][\\w]*)*)\\.[A-Z]");

    /** Package prefix to the prefixes it may use, from import-control.txt. */
    private static Map<String, List<String>> rules() throws IOException {
        Map<String, List<String>> rules = new LinkedHashMap<>();
        try (InputStream in = ArchitectureTest.class.getResourceAsStream("import-control.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                line = line.strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                int colon = line.indexOf(':');
                String rest = line.substring(colon + 1).strip();
                rules.put(line.substring(0, colon).strip(), rest.isEmpty() ? List.of() : List.of(rest.split("\\s+")));
            }
        }
        return rules;
    }

    private static boolean covers(String prefix, String name) {
        return prefix.endsWith(".") ? name.startsWith(prefix) : name.equals(prefix) || name.startsWith(prefix + ".");
    }

    @Test
    void everyPackageUsesOnlyWhatItsRuleAllows() throws IOException {
        Map<String, List<String>> rules = rules();
        List<String> offences = new ArrayList<>();
        Set<String> packages = new TreeSet<>();
        int files = 0;
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path module : modules.filter(m -> Files.isDirectory(m.resolve("src/main/java")))
                    .toList()) {
                try (Stream<Path> sources = Files.walk(module.resolve("src/main/java"))) {
                    for (Path source :
                            sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                        files++;
                        offences.addAll(offences(source, rules, packages));
                    }
                }
            }
        }
        assertTrue(files > 200, "the sources were found (" + files + " files)");
        assertTrue(packages.size() > 30, packages.toString());
        assertEquals(List.of(), offences);
    }

    private static List<String> offences(Path source, Map<String, List<String>> rules, Set<String> packages)
            throws IOException {
        String text = Files.readString(source);
        Matcher p = PACKAGE.matcher(text);
        String where = ROOT.relativize(source).toString();
        if (!p.find()) {
            return List.of(where + ": no package");
        }
        String pkg = p.group(1);
        packages.add(pkg);
        String rule = rules.keySet().stream()
                .filter(prefix -> covers(prefix, pkg))
                .max((a, b) -> Integer.compare(a.length(), b.length()))
                .orElse(null);
        if (rule == null) {
            return List.of(where + ": package " + pkg + " has no rule in import-control.txt");
        }
        String code = text.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
        Set<String> used = new TreeSet<>();
        Matcher imports = IMPORT.matcher(code);
        while (imports.find()) {
            used.add(imports.group(1));
        }
        Matcher qualified = QUALIFIED.matcher(code.replaceAll("(?m)^(package|import) .*$", ""));
        while (qualified.find()) {
            used.add(qualified.group(1) + ".*");
        }
        List<String> offences = new ArrayList<>();
        for (String name : used) {
            boolean allowed = name.startsWith("java.")
                    || name.startsWith(pkg + ".")
                    || rules.get(rule).stream().anyMatch(prefix -> covers(prefix, name));
            if (!allowed) {
                offences.add(where + ": " + pkg + " (rule " + rule + ") uses " + name);
            }
        }
        return offences;
    }

    @Test
    void theCommandLineCarriesNoServiceFramework() throws IOException {
        // what the taikai command runs with (its tests may use more: a Kafka client, a gRPC channel)
        String classpath = Files.readString(Path.of("target", "runtime-classpath.txt"));
        assertTrue(classpath.contains("taikai-rules"), classpath);
        for (String jar : classpath.split(java.io.File.pathSeparator)) {
            String name = Path.of(jar).getFileName().toString();
            for (String framework : List.of("quarkus-", "kafka-clients", "grpc-netty")) {
                assertTrue(!name.startsWith(framework), "the taikai command carries " + name);
            }
        }
    }
}
