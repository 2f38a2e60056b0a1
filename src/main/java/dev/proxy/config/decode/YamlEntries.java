package dev.proxy.config.decode;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Flattens a YAML document into {@link ConfigEntry entries}, keeping each value's line for error messages. Only
 * the node graph is read (no Java object construction), with alias and size limits, so a hostile file cannot
 * instantiate classes or expand into a billion laughs.
 */
public final class YamlEntries {

    private static final int MAX_BYTES = 8 * 1024 * 1024;

    private YamlEntries() {
    }

    public static List<ConfigEntry> read(Path file) {
        String name = file.toString();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(r, name);
        } catch (IOException e) {
            throw new ConfigException("file " + name + ": cannot read: " + e.getMessage());
        }
    }

    public static List<ConfigEntry> read(Reader reader, String name) {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(20);
        options.setAllowDuplicateKeys(false);
        options.setCodePointLimit(MAX_BYTES);
        Node root;
        try {
            root = new Yaml(options).compose(reader);
        } catch (MarkedYAMLException e) {
            int line = e.getProblemMark() == null ? 0 : e.getProblemMark().getLine() + 1;
            throw new ConfigException("file " + name + " line " + line + ": not valid YAML: " + e.getProblem());
        } catch (YAMLException e) {
            throw new ConfigException("file " + name + ": not valid YAML: " + e.getMessage());
        }
        List<ConfigEntry> out = new ArrayList<>();
        if (root == null) {
            return out;
        }
        if (!(root instanceof MappingNode)) {
            throw new ConfigException("file " + name + ": expected a mapping of keys at the top level");
        }
        flatten(root, new ArrayList<>(), name, out);
        return out;
    }

    private static void flatten(Node node, List<String> path, String file, List<ConfigEntry> out) {
        int line = node.getStartMark() == null ? 0 : node.getStartMark().getLine() + 1;
        Origin origin = Origin.file(file, String.join(".", path).replace(".[", "["), line);
        if (node instanceof MappingNode map) {
            if (map.getValue().isEmpty() && !path.isEmpty()) {
                out.add(new ConfigEntry(path, new ConfigEntry.Section(), origin));
            }
            for (NodeTuple t : map.getValue()) {
                if (!(t.getKeyNode() instanceof ScalarNode key)) {
                    throw new ConfigException(origin + ": keys must be plain strings");
                }
                List<String> child = new ArrayList<>(path);
                child.add(key.getValue());
                flatten(t.getValueNode(), child, file, out);
            }
        } else if (node instanceof SequenceNode seq) {
            boolean allScalars = seq.getValue().stream().allMatch(n -> n instanceof ScalarNode);
            if (allScalars) {
                List<String> items = seq.getValue().stream().map(n -> ((ScalarNode) n).getValue()).toList();
                out.add(new ConfigEntry(path, new ConfigEntry.Sequence(items), origin));
                return;
            }
            for (int i = 0; i < seq.getValue().size(); i++) {
                List<String> child = new ArrayList<>(path);
                child.add("[" + i + "]");
                flatten(seq.getValue().get(i), child, file, out);
            }
        } else if (node instanceof ScalarNode scalar) {
            // `ping:` with nothing after it is a null scalar: like `ping: {}` it means "present, defaults".
            boolean isNull = Tag.NULL.equals(scalar.getTag());
            ConfigEntry.Value value = isNull ? new ConfigEntry.Section() : new ConfigEntry.Scalar(scalar.getValue());
            out.add(new ConfigEntry(path, value, origin));
        }
    }
}
