package dev.taikai.engineworker.catalog;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * A node of a YAML configuration file that knows where it stands (file, line, path), so every error
 * can say so: {@code engines.yaml:7: engines[0].limits.memory-mb: expected a whole number, not 'lots'}.
 * Built on SnakeYAML's composed node tree; nothing is ever instantiated from the document.
 */
final class YamlNode {
    private final Node node;
    private final String file;
    private final String path;

    YamlNode(Node node, String file, String path) {
        this.node = node;
        this.file = file;
        this.path = path;
    }

    String path() {
        return path;
    }

    CatalogException error(String problem) {
        return new CatalogException(file + ":" + (node.getStartMark().getLine() + 1) + ": "
                + (path.isEmpty() ? "" : path + ": ") + problem);
    }

    /** The entries of a mapping, in file order; only {@code known} keys are allowed. */
    Map<String, YamlNode> mapping(Set<String> known) throws CatalogException {
        if (!(node instanceof MappingNode mapping)) {
            throw error("expected a mapping of keys to values");
        }
        Map<String, YamlNode> entries = new LinkedHashMap<>();
        for (NodeTuple tuple : mapping.getValue()) {
            YamlNode key = new YamlNode(tuple.getKeyNode(), file, path);
            String name = key.scalar();
            if (!known.isEmpty() && !known.contains(name)) {
                throw key.error("unknown key '" + name + "'; expected one of " + String.join(", ", known));
            }
            if (entries.containsKey(name)) {
                throw key.error("key '" + name + "' appears twice");
            }
            entries.put(name, new YamlNode(tuple.getValueNode(), file, path.isEmpty() ? name : path + "." + name));
        }
        return entries;
    }

    List<YamlNode> sequence() throws CatalogException {
        if (!(node instanceof SequenceNode sequence)) {
            throw error("expected a list");
        }
        List<YamlNode> items = new ArrayList<>();
        for (int i = 0; i < sequence.getValue().size(); i++) {
            items.add(new YamlNode(sequence.getValue().get(i), file, path + "[" + i + "]"));
        }
        return items;
    }

    String scalar() throws CatalogException {
        if (!(node instanceof ScalarNode scalar)) {
            throw error("expected a single value");
        }
        return scalar.getValue();
    }

    String nonEmpty() throws CatalogException {
        String value = scalar().trim();
        if (value.isEmpty()) {
            throw error("must not be empty");
        }
        return value;
    }

    long number(long min, long max) throws CatalogException {
        String text = scalar().trim();
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw error("expected a whole number, not '" + text + "'");
        }
        if (value < min || value > max) {
            throw error(value + " is out of range (" + min + " to " + max + ")");
        }
        return value;
    }

    /** A list of strings; a single value counts as a list of one. */
    List<String> strings() throws CatalogException {
        if (node instanceof ScalarNode) {
            return List.of(scalar());
        }
        List<String> values = new ArrayList<>();
        for (YamlNode item : sequence()) {
            values.add(item.scalar());
        }
        return values;
    }
}
