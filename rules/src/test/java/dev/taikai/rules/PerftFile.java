package dev.taikai.rules;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Reads the {@code .perft} data files in {@code src/test/resources/perft}. */
final class PerftFile {
    /** One expected count: position {@code id} in {@code variant} has {@code nodes} at {@code depth}. */
    record Row(String id, Variant variant, String sfen, int depth, long nodes, String source) {
        @Override
        public String toString() {
            return id + " depth " + depth;
        }
    }

    private PerftFile() {}

    static List<Row> rows(String resource) {
        List<Row> rows = new ArrayList<>();
        try (InputStream in = PerftFile.class.getResourceAsStream("/perft/" + resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource perft/" + resource);
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String id = null;
            String variant = null;
            String sfen = null;
            String source = null;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                int space = line.indexOf(' ');
                String key = line.substring(0, space);
                String value = line.substring(space + 1).trim();
                switch (key) {
                    case "id" -> id = value;
                    case "variant" -> variant = value;
                    case "sfen" -> sfen = value;
                    case "source" -> source = value;
                    case "tests" -> {}
                    case "perft" -> {
                        String[] parts = value.split(" ");
                        rows.add(new Row(
                                id,
                                Variant.byName(variant).orElseThrow(),
                                sfen,
                                Integer.parseInt(parts[0]),
                                Long.parseLong(parts[1]),
                                source));
                    }
                    default -> throw new IllegalStateException("unknown key '" + key + "' in perft/" + resource);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }

    static List<Row> rows(int minDepth, int maxDepth) {
        List<Row> selected = new ArrayList<>();
        for (String file : List.of("start.perft", "tricky.perft")) {
            for (Row row : rows(file)) {
                if (row.depth() >= minDepth && row.depth() <= maxDepth) {
                    selected.add(row);
                }
            }
        }
        return selected;
    }
}
