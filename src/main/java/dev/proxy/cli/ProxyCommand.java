package dev.proxy.cli;

import dev.proxy.config.decode.ConfigException;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.config.install.InstallConfigLoader;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code proxy}: serves (the default command). */
@Command(name = "proxy", mixinStandardHelpOptions = true, versionProvider = ProxyCommand.Version.class,
        subcommands = {HealthcheckCommand.class, VersionCommand.class},
        description = "Edge reverse proxy: entry points, routers, services and middlewares, configured by files, "
                + "Consul tags (registryCatalog) and ECS container labels (clusterTasks).")
final class ProxyCommand implements Callable<Integer> {

    @Mixin
    ConfigArguments config;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        InstallConfigLoader.Loaded loaded;
        try {
            loaded = config.load();
            validateForServing(loaded.config());
        } catch (ConfigException e) {
            System.err.println("proxy: invalid configuration: " + e.getMessage());
            return Main.EXIT_CONFIG;
        }
        return new Serve(loaded).run();
    }

    /** Checks that only matter when serving (the healthcheck reports them in its own words). */
    static void validateForServing(InstallConfig config) {
        if (config.pingEnabled() && !config.ping().manualRouting()
                && !config.entryPoints().containsKey(config.ping().entryPoint())) {
            throw new ConfigException("ping.entryPoint=" + config.ping().entryPoint()
                    + ": no entry point of that name (defined: " + String.join(", ", config.entryPoints().keySet()) + ")");
        }
        var prometheus = config.metrics().prometheus();
        if (prometheus != null && !prometheus.manualRouting()
                && !config.entryPoints().containsKey(prometheus.entryPoint())) {
            throw new ConfigException("metrics.prometheus.entryPoint=" + prometheus.entryPoint()
                    + ": no entry point of that name (defined: " + String.join(", ", config.entryPoints().keySet()) + ")");
        }
        if (config.entryPoints().isEmpty()) {
            throw new ConfigException("entryPoints: none defined; add one, e.g. --entryPoints.web.address=:8000");
        }
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"proxy " + VersionCommand.version()};
        }
    }
}
