package dev.proxy.cli;

import picocli.CommandLine;

/**
 * Entry point of the {@code proxy} program. Parses the command line with picocli before any DI container exists,
 * so {@code proxy healthcheck} and {@code proxy version} stay cheap; only serving starts Micronaut.
 */
public final class Main {

    /** Exit code for invalid configuration or usage, as documented in the README. */
    public static final int EXIT_CONFIG = 2;

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        CommandLine cl = new CommandLine(new ProxyCommand());
        cl.setUnmatchedArgumentsAllowed(true);
        cl.setUnmatchedOptionsArePositionalParams(false);
        cl.getSubcommands().values().forEach(sub -> sub.setUnmatchedArgumentsAllowed(true));
        cl.getCommandSpec().usageMessage().footer(ConfigArguments.keysHelp());
        cl.setParameterExceptionHandler((ex, a) -> {
            System.err.println("proxy: " + ex.getMessage());
            return EXIT_CONFIG;
        });
        return cl.execute(args);
    }
}
