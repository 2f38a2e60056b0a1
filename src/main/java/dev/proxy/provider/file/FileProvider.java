package dev.proxy.provider.file;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;
import static java.nio.file.StandardWatchEventKinds.OVERFLOW;

import dev.proxy.config.decode.ConfigException;
import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.install.FileProviderConfig;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.provider.ConfigurationSink;
import dev.proxy.provider.ExplainedItem;
import dev.proxy.provider.Explainable;
import dev.proxy.provider.Provider;
import dev.proxy.provider.SerialScheduler;
import dev.proxy.provider.ThreadScheduler;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code file} provider: dynamic configuration from {@code providers.file.filename}, or from every
 * {@code *.yml}/{@code *.yaml} file directly in {@code providers.file.directory} (in name order; hidden files and
 * subdirectories are ignored).
 *
 * <p>With {@code watch} (the default) the files are re-read when they change. The parent directory is watched, not
 * the file, because editors and tools replace files by renaming a new one over them, and a watch on the old file
 * would go quiet. Events are debounced briefly so that a burst of writes is read once. Because some filesystems
 * (network and container mounts) drop events, the files are also re-checked every two seconds; a check compares the
 * content read with the content last read, so nothing is published when nothing changed.
 *
 * <p>A broken file (YAML error, unknown key, bad value) is logged once, in one line naming the file, line, key and
 * value, and nothing is published: the last good configuration stays. A file that disappears (or a directory left
 * with no configuration files) publishes an empty configuration: its routes are removed.
 */
@Singleton
@Requires(condition = FileProviderEnabled.class)
public class FileProvider implements Provider, Explainable {

    public static final String NAME = "file";
    /** A {@code filename} with this prefix names a resource inside the program (the embedded default's routes). */
    public static final String CLASSPATH = "classpath:";
    static final Duration RECHECK_INTERVAL = Duration.ofSeconds(2);
    static final Duration DEBOUNCE = Duration.ofMillis(100);

    private static final Logger LOG = LoggerFactory.getLogger(FileProvider.class);

    private final FileProviderConfig config;
    private final Path watchedDirectory;
    private final Duration recheckInterval;
    private final boolean useWatchService;
    private final boolean watch;
    private final SerialScheduler scheduler = new ThreadScheduler("proxy-provider-file");
    private final AtomicBoolean checkScheduled = new AtomicBoolean();

    private volatile boolean stopped;
    private volatile List<ExplainedItem> explained = List.of();
    private @Nullable ConfigurationSink sink;
    private @Nullable WatchService watchService;

    // Touched only on the scheduler's thread.
    private @Nullable List<SourceFile> lastRead;
    private @Nullable String lastProblem;
    private @Nullable WatchKey watchKey;

    @Inject
    public FileProvider(InstallConfig install) {
        this(Objects.requireNonNull(install.providers().file(), "providers.file"), RECHECK_INTERVAL, true);
    }

    FileProvider(FileProviderConfig config, Duration recheckInterval, boolean useWatchService) {
        this.config = config;
        this.recheckInterval = recheckInterval;
        this.useWatchService = useWatchService;
        // A resource inside the program cannot change while it runs: nothing to watch.
        this.watch = config.watch() && !isResource(config);
        Path target = Path.of(config.filename() != null ? config.filename() : config.directory()).toAbsolutePath();
        this.watchedDirectory = config.filename() != null ? target.getParent() : target;
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Loads the configuration before returning, so that the first snapshot is published by then (checks run on the
     * provider's thread only, never concurrently); then watches.
     */
    @Override
    public synchronized void start(ConfigurationSink sink) {
        if (stopped || this.sink != null) {
            return; // a closed scheduler drops tasks: waiting for the first check would never end
        }
        this.sink = sink;
        LOG.info("file provider: reading {}{}", describe(), watch ? ", watching for changes" : "");
        if (watch) {
            startWatchService();
        }
        CompletableFuture<Void> firstCheck = new CompletableFuture<>();
        scheduler.execute(() -> {
            try {
                check();
            } finally {
                firstCheck.complete(null);
            }
        });
        firstCheck.join();
        if (watch) {
            scheduler.schedule(recheckInterval, this::periodicCheck);
        }
    }

    @Override
    public synchronized void stop() {
        stopped = true;
        scheduler.close();
        WatchService ws = watchService;
        if (ws != null) {
            try {
                ws.close(); // ends the watch thread's take()
            } catch (IOException e) {
                LOG.debug("closing the file watch: {}", e.toString());
            }
        }
    }

    private String describe() {
        return config.filename() != null ? "file " + config.filename() : "directory " + config.directory();
    }

    private void periodicCheck() {
        check();
        scheduler.schedule(recheckInterval, this::periodicCheck);
    }

    /** Reads the files; publishes when their content differs from the last read. */
    private void check() {
        checkScheduled.set(false);
        if (stopped) {
            return;
        }
        if (watch) {
            keepWatching();
        }
        List<SourceFile> files;
        long start = System.nanoTime();
        try {
            files = readSources();
        } catch (IOException | ConfigException e) {
            failed(e instanceof ConfigException ? e.getMessage() : describe() + ": cannot read: " + e, start);
            lastRead = null; // so that the same files read successfully later are published
            return;
        }
        if (files.equals(lastRead)) {
            refreshed(start);
            return;
        }
        if (files.stream().anyMatch(f -> f.content().isBlank())) {
            // A file being rewritten in place is empty for a moment; publishing that would drop every route. An
            // empty file is therefore never applied (delete the file, or write `http: {}`, to remove routes).
            LOG.debug("file provider: {}: an empty file, waiting for its content", describe());
            return;
        }
        lastRead = files;
        if (files.isEmpty()) {
            LOG.warn("file provider: {}: publishing an empty configuration (its routes are removed)",
                    config.filename() != null ? "file " + config.filename() + " not found"
                            : "no *.yml or *.yaml file in directory " + config.directory());
            lastProblem = null;
            explained = List.of(ExplainedItem.skipped(describe(), config.filename() != null ? "not found"
                    : "no *.yml or *.yaml file in it"));
            refreshed(start);
            publish(DynamicConfig.EMPTY);
            return;
        }
        FileConfigBuilder.Built built;
        try {
            built = FileConfigBuilder.build(files);
        } catch (ConfigException e) {
            failed(e.getMessage(), start);
            return;
        }
        lastProblem = null;
        explained = built.explained();
        refreshed(start);
        built.warnings().forEach(w -> LOG.warn("file provider: {}", w));
        var http = built.config().http();
        LOG.info("file provider: loaded {} ({} routers, {} services, {} middlewares)", describe(),
                http.routers().size(), http.services().size(), http.middlewares().size());
        publish(built.config());
    }

    /** What became of each file and resource in the last read. */
    @Override
    public List<ExplainedItem> explainItems() {
        return explained;
    }

    private void refreshed(long startNanos) {
        ConfigurationSink s = sink;
        if (s != null) {
            s.refreshed(NAME, Duration.ofNanos(System.nanoTime() - startNanos));
        }
    }

    private void failed(String message, long startNanos) {
        problem(message);
        explained = List.of(ExplainedItem.skipped(describe(), message + "; the last good configuration stays"));
        ConfigurationSink s = sink;
        if (s != null) {
            s.refreshFailed(NAME, Duration.ofNanos(System.nanoTime() - startNanos), message);
        }
    }

    private void problem(String message) {
        // Logged once per distinct problem: the periodic re-check must not repeat it every two seconds.
        if (!message.equals(lastProblem)) {
            LOG.error("{}; keeping the last good configuration", message);
            lastProblem = message;
        }
    }

    private void publish(DynamicConfig dynamic) {
        ConfigurationSink s = sink;
        if (s != null && !stopped) {
            s.publish(NAME, dynamic);
        }
    }

    /** The configuration files as they are now; an empty list when there are none. */
    private List<SourceFile> readSources() throws IOException {
        List<Path> paths = new ArrayList<>();
        if (isResource(config)) {
            return readResource(config.filename().substring(CLASSPATH.length()));
        }
        if (config.filename() != null) {
            paths.add(Path.of(config.filename()));
        } else {
            Path dir = Path.of(config.directory());
            if (!Files.isDirectory(dir)) {
                return List.of();
            }
            try (Stream<Path> listing = Files.list(dir)) {
                listing.filter(p -> isConfigFileName(p.getFileName().toString()))
                        .filter(Files::isRegularFile)
                        .sorted()
                        .forEach(paths::add);
            }
        }
        List<SourceFile> out = new ArrayList<>();
        for (Path p : paths) {
            try {
                out.add(new SourceFile(p, Files.readString(p)));
            } catch (NoSuchFileException gone) {
                // deleted between listing and reading (or not there at all): absent
            } catch (MalformedInputException e) {
                throw new ConfigException("file " + p + ": not valid UTF-8 text");
            }
        }
        return out;
    }

    private static boolean isResource(FileProviderConfig config) {
        return config.filename() != null && config.filename().startsWith(CLASSPATH);
    }

    private static List<SourceFile> readResource(String name) throws IOException {
        try (var in = FileProvider.class.getResourceAsStream(name)) {
            if (in == null) {
                return List.of();
            }
            String text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            return List.of(new SourceFile(Path.of(name).getFileName(), text));
        }
    }

    static boolean isConfigFileName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        // Hidden files are editors' swap and lock files, not configuration.
        return !lower.startsWith(".") && (lower.endsWith(".yml") || lower.endsWith(".yaml"));
    }

    private boolean isRelevant(Path changed) {
        String name = changed.getFileName().toString();
        if (config.filename() != null) {
            return name.equals(Path.of(config.filename()).getFileName().toString());
        }
        return isConfigFileName(name);
    }

    private void startWatchService() {
        if (!useWatchService) {
            return;
        }
        try {
            watchService = FileSystems.getDefault().newWatchService();
        } catch (IOException | UnsupportedOperationException e) {
            LOG.warn("file provider: no file system events ({}); checking every {} s", e, recheckInterval.toSeconds());
            return;
        }
        Thread t = new Thread(this::watchLoop, "proxy-provider-file-watch");
        t.setDaemon(true);
        t.start();
    }

    /** (Re-)registers the directory watch, for example after the directory was deleted and created again. */
    private void keepWatching() {
        WatchService ws = watchService;
        if (ws == null || (watchKey != null && watchKey.isValid()) || !Files.isDirectory(watchedDirectory)) {
            return;
        }
        try {
            watchKey = watchedDirectory.register(ws, ENTRY_CREATE, ENTRY_MODIFY, ENTRY_DELETE);
        } catch (IOException | ClosedWatchServiceException e) {
            LOG.debug("file provider: cannot watch {}: {}", watchedDirectory, e.toString());
        }
    }

    private void watchLoop() {
        WatchService ws = Objects.requireNonNull(watchService);
        while (!stopped) {
            WatchKey key;
            try {
                key = ws.take();
            } catch (InterruptedException | ClosedWatchServiceException e) {
                return;
            }
            boolean relevant = false;
            for (WatchEvent<?> event : key.pollEvents()) {
                relevant |= event.kind() == OVERFLOW || event.context() instanceof Path p && isRelevant(p);
            }
            key.reset();
            if (relevant && checkScheduled.compareAndSet(false, true)) {
                scheduler.schedule(DEBOUNCE, this::check);
            }
        }
    }
}
