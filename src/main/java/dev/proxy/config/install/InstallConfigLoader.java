package dev.proxy.config.install;

import dev.proxy.config.decode.CommandLineEntries;
import dev.proxy.config.decode.ConfigEntry;
import dev.proxy.config.decode.ConfigException;
import dev.proxy.config.decode.RecordDecoder;
import dev.proxy.config.decode.YamlEntries;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Loads the {@link InstallConfig} from its three sources and layers them: flags over environment variables over
 * the file. (Traefik uses only the first source that has anything, which silently ignores the others — a known
 * confusion; here they merge, and {@code --help} says so.)
 *
 * <p>The file is {@code --configFile} / {@code PROXY_CONFIGFILE}, else the first of {@code ./proxy.yml},
 * {@code ./proxy.yaml}, {@code $XDG_CONFIG_HOME/proxy.yml}, {@code $HOME/.config/proxy.yml},
 * {@code /etc/proxy/proxy.yml}. When no source configures anything the embedded default is used.
 */
public final class InstallConfigLoader {

    public static final String ENV_PREFIX = "PROXY_";
    public static final String CONFIG_FILE_FLAG = "--configFile";
    public static final String CONFIG_FILE_ENV = "PROXY_CONFIGFILE";
    public static final String EMBEDDED_DEFAULT = "/dev/proxy/default-proxy.yml";

    private final Map<String, String> env;
    private final Path workingDirectory;
    private final List<Path> systemFiles;

    /** What was loaded and from where, for the start-up log line. */
    public record Loaded(InstallConfig config, String fileDescription) {
    }

    public InstallConfigLoader(Map<String, String> env, Path workingDirectory) {
        this(env, workingDirectory, List.of(Path.of("/etc/proxy/proxy.yml"), Path.of("/etc/proxy/proxy.yaml")));
    }

    InstallConfigLoader(Map<String, String> env, Path workingDirectory, List<Path> systemFiles) {
        this.env = env;
        this.workingDirectory = workingDirectory;
        this.systemFiles = systemFiles;
    }

    /**
     * @param args the configuration flags ({@code --key=value}, including {@code --configFile=…})
     * @throws ConfigException naming the source, key and value of the first problem
     */
    public Loaded load(List<String> args) {
        List<String> flags = new ArrayList<>();
        String explicitFile = env.get(CONFIG_FILE_ENV);
        for (String arg : args) {
            if (arg.startsWith(CONFIG_FILE_FLAG + "=")) {
                explicitFile = arg.substring(CONFIG_FILE_FLAG.length() + 1);
            } else {
                flags.add(arg);
            }
        }
        List<ConfigEntry> flagEntries = CommandLineEntries.fromFlags(flags);
        List<ConfigEntry> envEntries = CommandLineEntries.fromEnvironment(env, ENV_PREFIX, List.of(CONFIG_FILE_ENV));
        List<ConfigEntry> fileEntries;
        String description;
        Optional<Path> file = findFile(explicitFile);
        if (file.isPresent()) {
            fileEntries = YamlEntries.read(file.get());
            description = file.get().toString();
        } else if (flagEntries.isEmpty() && envEntries.isEmpty()) {
            fileEntries = embeddedDefault();
            description = "embedded default (no file, flags or PROXY_* variables given)";
        } else {
            fileEntries = List.of();
            description = "none";
        }
        List<ConfigEntry> layered = CommandLineEntries.layer(fileEntries, envEntries, flagEntries);
        return new Loaded(RecordDecoder.decode(InstallConfig.class, layered), description);
    }

    private Optional<Path> findFile(String explicitFile) {
        if (explicitFile != null && !explicitFile.isBlank()) {
            Path p = workingDirectory.resolve(explicitFile);
            if (!Files.isRegularFile(p)) {
                throw new ConfigException("configFile " + explicitFile + ": no such file");
            }
            return Optional.of(p);
        }
        List<Path> candidates = new ArrayList<>();
        candidates.add(workingDirectory.resolve("proxy.yml"));
        candidates.add(workingDirectory.resolve("proxy.yaml"));
        String xdg = env.get("XDG_CONFIG_HOME");
        if (xdg != null && !xdg.isBlank()) {
            candidates.add(Path.of(xdg, "proxy.yml"));
        }
        String home = env.get("HOME");
        if (home != null && !home.isBlank()) {
            candidates.add(Path.of(home, ".config", "proxy.yml"));
        }
        candidates.addAll(systemFiles);
        return candidates.stream().filter(Files::isRegularFile).findFirst();
    }

    private static List<ConfigEntry> embeddedDefault() {
        try (Reader r = new InputStreamReader(InstallConfigLoader.class.getResourceAsStream(EMBEDDED_DEFAULT),
                StandardCharsets.UTF_8)) {
            return YamlEntries.read(r, "embedded default");
        } catch (java.io.IOException | NullPointerException e) {
            throw new IllegalStateException("embedded default configuration missing", e);
        }
    }
}
