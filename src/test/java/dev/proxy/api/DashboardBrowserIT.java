package dev.proxy.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard in a real headless Chromium (Debian's, driven by playwright-core; see
 * {@code src/test/services/browser}): served by a data plane with the file-provider configuration of
 * {@link ApiFixture}, it finds a router by name and marks the down server DOWN. Writes a screenshot to
 * {@code target/dashboard.png}, or where {@code -Ddashboard.screenshot} says (the README's is {@code docs/dashboard.png}).
 */
class DashboardBrowserIT {

    private static final Path SCRIPTS = Path.of("src/test/services/browser");

    @TempDir
    Path dir;

    @Test
    void findsARouterByNameAndShowsTheDownServer() throws Exception {
        String playwright = run(List.of("bash", SCRIPTS.resolve("ensure-browser.sh").toString()), null).lines()
                .reduce((a, b) -> b).orElseThrow();
        Path screenshot = Path.of(System.getProperty("dashboard.screenshot", "target/dashboard.png")).toAbsolutePath();
        Files.createDirectories(screenshot.getParent());
        Files.deleteIfExists(screenshot);
        try (ApiFixture f = new ApiFixture(dir)) {
            String output = run(List.of("node", SCRIPTS.resolve("dashboard-check.cjs").toString(),
                    f.proxy.url("proxy", "/dashboard/"), "web@file", ApiFixture.DOWN_URL, screenshot.toString()),
                    playwright);
            assertThat(output).contains("ok - router web@file is listed and visible after searching for it",
                    "ok - server " + ApiFixture.DOWN_URL + " is marked DOWN (in 2 services)", "ok - the DOWN badge has the down style",
                    "ok - the file provider shows its last successful refresh", "ok - no script errors");
        }
        byte[] png = Files.readAllBytes(screenshot);
        assertThat(png.length).isGreaterThan(10_000);
        assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }

    /** Runs a command, returns its output; fails with the output when it does not exit 0. */
    private static String run(List<String> command, String playwrightCore) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        if (playwrightCore != null) {
            pb.environment().put("PLAYWRIGHT_CORE", playwrightCore);
        }
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes(); // until it exits (stdout and stderr together)
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
        }
        String text = new String(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("%s:%n%s", command, text).isZero();
        return text;
    }
}
