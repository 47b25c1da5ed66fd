package dev.gauntlet.runner;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A page opened in Debian's headless Chromium with the network cut off, as a person's browser would open a report
 * file:
 *
 * <pre>
 * HeadlessChromium.Page page = HeadlessChromium.find().open(reportHtml.toUri(), workDir);
 * page.dom();             // the DOM once the page's scripts ran (10 s of virtual time at most)
 * page.consoleMessages(); // every console message the page logged, errors included
 * HeadlessChromium.find().screenshot(reportHtml, png, workDir);
 * </pre>
 *
 * Chromium's console logging to stderr does not tell errors from other levels, so the pages log nothing at all
 * when they work, and any console message counts against them.
 */
record HeadlessChromium(Path executable) {
    private static final List<String> NAMES = List.of("chromium-headless-shell", "chromium", "chromium-browser");
    private static final long TIMEOUT_SEC = 90;

    record Page(String dom, List<String> consoleMessages) {
    }

    /** The first Chromium on the PATH; fails with the way to install one. */
    static HeadlessChromium find() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            for (String name : NAMES) {
                Path candidate = Path.of(dir, name);
                if (Files.isExecutable(candidate)) {
                    return new HeadlessChromium(candidate);
                }
            }
        }
        throw new AssertionError("no Chromium on the PATH: install one with "
                + "'apt-get update && apt-get install -y chromium-headless-shell' (.ci/run does)");
    }

    Page open(URI page, Path workDir) throws IOException, InterruptedException {
        Path stdout = workDir.resolve("chromium-dom.html");
        Path stderr = workDir.resolve("chromium-dom.log");
        run(workDir, List.of("--enable-logging=stderr", "--v=0", "--window-size=1280,1000", "--dump-dom", page.toString()),
                stdout, stderr);
        List<String> console;
        try (Stream<String> lines = Files.lines(stderr, StandardCharsets.UTF_8)) {
            console = lines.filter(line -> line.contains(":CONSOLE")).toList();
        }
        return new Page(Files.readString(stdout, StandardCharsets.UTF_8), console);
    }

    void screenshot(Path html, Path png, Path workDir) throws IOException, InterruptedException {
        Files.createDirectories(png.getParent());
        run(workDir, List.of("--hide-scrollbars", "--window-size=1280,2400", "--screenshot=" + png.toAbsolutePath(),
                html.toUri().toString()), workDir.resolve("chromium-screenshot.out"), workDir.resolve("chromium-screenshot.log"));
    }

    private void run(Path workDir, List<String> args, Path stdout, Path stderr) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(executable.toString(),
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-extensions", "--no-first-run", "--mute-audio",
                // No network: every host resolves to nothing and every connection goes to a proxy that is not there.
                "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
                "--user-data-dir=" + Files.createTempDirectory(workDir, "chromium-profile"),
                // The page decodes its data and draws in promises and frames: let them all run before the dump.
                "--virtual-time-budget=10000"));
        command.addAll(args);
        Process chromium = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        if (!chromium.waitFor(TIMEOUT_SEC, TimeUnit.SECONDS)) {
            chromium.destroyForcibly().waitFor();
            throw new AssertionError("Chromium did not finish within " + TIMEOUT_SEC + " s: " + command);
        }
        if (chromium.exitValue() != 0) {
            throw new AssertionError("Chromium exited with " + chromium.exitValue() + "; its log: " + stderr);
        }
    }
}
