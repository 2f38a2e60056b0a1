package dev.proxy.config.decode;

/**
 * Where one configuration value came from, in the words of its source, so that an error can name the exact
 * spelling the user typed: {@code flag --ping.entryPoint}, {@code environment variable PROXY_PING},
 * {@code file /etc/proxy/proxy.yml line 3: ping.entryPoint}.
 *
 * @param source the source kind and location, e.g. {@code "flag"} or {@code "file ./proxy.yml"}
 * @param key    the key as written in that source
 * @param line   1-based line in a file source, 0 when unknown
 */
public record Origin(String source, String key, int line) {

    public static Origin flag(String key) {
        return new Origin("flag", "--" + key, 0);
    }

    public static Origin environment(String name) {
        return new Origin("environment variable", name, 0);
    }

    public static Origin file(String file, String key, int line) {
        return new Origin("file " + file, key, line);
    }

    /** Same source and line, another key (used for the elements of a list). */
    public Origin withKey(String otherKey) {
        return new Origin(source, otherKey, line);
    }

    @Override
    public String toString() {
        return line > 0 ? source + " line " + line + ": " + key : source + " " + key;
    }
}
