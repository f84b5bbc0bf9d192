package dev.taikai.enginehost.config;

import java.io.Reader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
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
public final class YamlNode {
    private final Node node;
    private final String file;
    private final String path;

    public YamlNode(Node node, String file, String path) {
        this.node = node;
        this.file = file;
        this.path = path;
    }

    /**
     * The root of a YAML document; only the node tree is built, nothing is instantiated from it.
     *
     * @throws ConfigException for text that is not YAML, or an empty document
     */
    public static YamlNode root(Reader text, String fileName, String emptyMessage) throws ConfigException {
        Node root;
        try {
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(true); // reported by mapping() with the key's line
            root = new Yaml(options).compose(text);
        } catch (MarkedYAMLException e) {
            throw new ConfigException(
                    fileName + ":" + (e.getProblemMark().getLine() + 1) + ": not valid YAML: " + e.getProblem());
        } catch (YAMLException e) {
            throw new ConfigException(fileName + ": not valid YAML: " + e.getMessage());
        }
        if (root == null) {
            throw new ConfigException(fileName + ": " + emptyMessage);
        }
        return new YamlNode(root, fileName, "");
    }

    /** True for a single value (not a mapping or list). */
    public boolean isScalar() {
        return node instanceof ScalarNode;
    }

    /** True for a mapping. */
    public boolean isMapping() {
        return node instanceof MappingNode;
    }

    public String path() {
        return path;
    }

    public ConfigException error(String problem) {
        return new ConfigException(file + ":" + (node.getStartMark().getLine() + 1) + ": "
                + (path.isEmpty() ? "" : path + ": ") + problem);
    }

    /** The entries of a mapping, in file order; only {@code known} keys are allowed. */
    public Map<String, YamlNode> mapping(Set<String> known) throws ConfigException {
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

    public List<YamlNode> sequence() throws ConfigException {
        if (!(node instanceof SequenceNode sequence)) {
            throw error("expected a list");
        }
        List<YamlNode> items = new ArrayList<>();
        for (int i = 0; i < sequence.getValue().size(); i++) {
            items.add(new YamlNode(sequence.getValue().get(i), file, path + "[" + i + "]"));
        }
        return items;
    }

    public String scalar() throws ConfigException {
        if (!(node instanceof ScalarNode scalar)) {
            throw error("expected a single value");
        }
        return scalar.getValue();
    }

    /**
     * A scalar given as text: YAML's null written out ({@code ~}, {@code null}) is refused, where {@link
     * #scalar} returns its spelling (an option set to {@code null} was sent as the word); an empty value
     * stays empty.
     */
    public String text() throws ConfigException {
        String value = scalar();
        if (node.getTag().equals(org.yaml.snakeyaml.nodes.Tag.NULL) && !value.isEmpty()) {
            throw error("'" + value + "' is YAML's null: quote it for the word, or leave the value empty for none");
        }
        return value;
    }

    public String nonEmpty() throws ConfigException {
        String value = scalar().trim();
        if (value.isEmpty()) {
            throw error("must not be empty");
        }
        return value;
    }

    /** {@code true} or {@code false}, and nothing else. */
    public boolean bool() throws ConfigException {
        String text = nonEmpty();
        if (!text.equals("true") && !text.equals("false")) {
            throw error("expected true or false, not '" + text + "'");
        }
        return text.equals("true");
    }

    public long number(long min, long max) throws ConfigException {
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
    public List<String> strings() throws ConfigException {
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
