package dev.proxy.cli;

import picocli.CommandLine;

/**
 * Entry point of the {@code proxy} program. Parses the command line with picocli before any DI container exists,
 * so {@code proxy healthcheck} and {@code proxy version} stay cheap; only serving starts Micronaut.
 */
public final class Main {

    /** Exit code for invalid configuration or usage, as documented in the README. */
    public static final int EXIT_CONFIG = 2;

    /** When {@code main} began, for the start-up time in the log. */
    static final long STARTED_NANOS = System.nanoTime();

    private Main() {
    }

    public static void main(String[] args) {
        // Netty 4.2 registers JFR events for every buffer allocation when JFR is available: ~0.2 s on the first
        // request and ~100 classes. Opt back in with -Dio.netty.jfr.enabled=true.
        if (System.getProperty("io.netty.jfr.enabled") == null) {
            System.setProperty("io.netty.jfr.enabled", "false");
        }
        System.exit(run(args));
    }

    static int run(String[] args) {
        CommandLine cl = new CommandLine(new ProxyCommand());
        cl.setUnmatchedArgumentsAllowed(true);
        cl.setUnmatchedOptionsArePositionalParams(false);
        cl.getSubcommands().values().forEach(sub -> sub.setUnmatchedArgumentsAllowed(true));
        // Rendered only when help is printed: listing the keys reflects over every configuration record.
        cl.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER,
                help -> help.createHeading(ConfigArguments.keysHelp()));
        cl.setParameterExceptionHandler((ex, a) -> {
            System.err.println("proxy: " + ex.getMessage());
            // Docker reserves exit code 2 for HEALTHCHECK: a health check that cannot run is just unhealthy.
            return ex.getCommandLine().getCommand() instanceof HealthcheckCommand ? 1 : EXIT_CONFIG;
        });
        return cl.execute(args);
    }
}
