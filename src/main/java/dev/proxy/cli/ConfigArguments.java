package dev.proxy.cli;

import dev.proxy.config.decode.KeyCatalog;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.config.install.InstallConfigLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The configuration options shared by {@code proxy} and its subcommands (a picocli mixin). */
final class ConfigArguments {

    @Option(names = "--configFile", paramLabel = "FILE",
            description = "YAML install configuration (default: ./proxy.yml, $XDG_CONFIG_HOME/proxy.yml, "
                    + "~/.config/proxy.yml, /etc/proxy/proxy.yml; env PROXY_CONFIGFILE)")
    String configFile;

    // The configuration flags are open-ended (--entryPoints.<name>.address=…), so picocli leaves them unmatched.
    // An @Unmatched field in a mixin is never filled by picocli 4.7; the mixee's command line holds them.
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    InstallConfigLoader.Loaded load() {
        List<String> all = new ArrayList<>(mixee.commandLine().getUnmatchedArguments());
        if (configFile != null) {
            all.add(InstallConfigLoader.CONFIG_FILE_FLAG + "=" + configFile);
        }
        return new InstallConfigLoader(System.getenv(), Path.of("").toAbsolutePath()).load(all);
    }

    /** The help footer: every configuration key, and how the sources combine. */
    static String keysHelp() {
        StringBuilder b = new StringBuilder();
        b.append("%nConfiguration keys (as --flags, as PROXY_KEY_KEY variables, or in the YAML file):%n");
        for (String key : KeyCatalog.keys(InstallConfig.class)) {
            b.append("  --").append(key).append("%n");
        }
        b.append("%nSources merge; precedence: flags > environment variables > file. "
                + "Invalid configuration exits with code 2.%n");
        return b.toString();
    }
}
