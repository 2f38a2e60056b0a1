package dev.proxy.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code proxy version}: prints the version and the runtime. */
@Command(name = "version", description = "Print the version.", mixinStandardHelpOptions = true)
final class VersionCommand implements Callable<Integer> {

    static String version() {
        String v = Main.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    @Override
    public Integer call() {
        System.out.println("Version:      " + version());
        System.out.println("Java version: " + Runtime.version());
        System.out.println("OS/Arch:      " + System.getProperty("os.name").toLowerCase() + "/" + System.getProperty("os.arch"));
        return 0;
    }
}
