package dev.proxy.testing.aws;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Where the patched moto emulator runs: a local process (the default) or a container. */
interface MotoRuntime {

    /**
     * Starts the emulator, on the port of the previous run when there was one.
     *
     * @return the variables of {@code moto.env}: {@code AWS_ENDPOINT_URL}, fake credentials, region
     */
    Map<String, String> start() throws IOException;

    /** Stops the emulator; its state (clusters, tasks, …) is gone, the port is kept for {@link #start()}. */
    void stop();

    /** The virtualenv python that runs the launcher, for scripts such as smoke_test.py. */
    Optional<Path> python();

    /** Reads the {@code NAME=value} lines that launcher.py writes to moto.env. */
    static Map<String, String> parseEnv(String text) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                env.put(line.substring(0, eq), line.substring(eq + 1).strip());
            }
        }
        return env;
    }
}
