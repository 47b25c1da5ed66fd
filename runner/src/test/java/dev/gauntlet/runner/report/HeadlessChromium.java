package dev.gauntlet.runner.report;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * A page opened in Debian's headless Chromium with the network cut off, as a person's browser would open a report
 * file, read once it has marked itself drawn ({@code data-rendered} or {@code data-render-error} on {@code <html>}):
 *
 * <pre>
 * HeadlessChromium.Page page = HeadlessChromium.find().open(reportHtml.toUri(), workDir);
 * page.dom();             // the DOM once the page's scripts ran (60 s at most)
 * page.consoleMessages(); // every console message, uncaught exception, warning or error the page logged
 * HeadlessChromium.find().openAs(reportHtml.toUri(), workDir, new View(900, true), script); // 900 px wide, dark
 * HeadlessChromium.find().screenshot(reportHtml, png, workDir);
 * </pre>
 *
 * The pages log nothing at all when they work, so any console message counts against them.
 */
public record HeadlessChromium(Path executable) {
    private static final List<String> NAMES = List.of("chromium-headless-shell", "chromium", "chromium-browser");
    private static final long RENDER_TIMEOUT_MS = 60_000;
    private static final String RENDER_MARK = "document.documentElement.dataset.rendered || "
            + "document.documentElement.dataset.renderError || ''";
    private static final List<String> FLAGS = List.of(
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-extensions", "--no-first-run", "--mute-audio", "--hide-scrollbars", "--window-size=1280,1000",
            // No network: every host resolves to nothing and every connection goes to a proxy that is not there.
            "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>");

    /**
     * @param requests the URL of every request the page made, its own navigation first ({@code file:} for a page on
     *                 disk, {@code data:} for what it inlined)
     */
    public record Page(String dom, List<String> consoleMessages, List<String> requests) {
    }

    /** How the page is seen: the window's width in CSS pixels, and whether the reader's system asks for dark colours. */
    public record View(int widthPx, boolean dark) {
        static final View DEFAULT = new View(1280, false);
    }

    /** The first Chromium on the PATH; fails with the way to install one. */
    public static HeadlessChromium find() {
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

    public Page open(URI page, Path workDir) throws IOException, InterruptedException {
        return openAs(page, workDir, View.DEFAULT, null);
    }

    /** The page as {@link #open} returns it, after {@code script} (a click, say) ran on the drawn page. */
    public Page openAndRun(URI page, Path workDir, String script) throws IOException, InterruptedException {
        return openAs(page, workDir, View.DEFAULT, script);
    }

    /** The page as {@code view} sees it, after {@code script} (when not null) ran on the drawn page. */
    public Page openAs(URI page, Path workDir, View view, String script) throws IOException, InterruptedException {
        try (DevToolsSession chromium = DevToolsSession.start(executable, workDir, FLAGS)) {
            chromium.call("Emulation.setDeviceMetricsOverride",
                    Map.of("width", view.widthPx(), "height", 1000, "deviceScaleFactor", 1, "mobile", false));
            chromium.call("Emulation.setEmulatedMedia", Map.of("features",
                    List.of(Map.of("name", "prefers-color-scheme", "value", view.dark() ? "dark" : "light"))));
            openDrawn(chromium, page);
            if (script != null) {
                chromium.evaluate(script);
            }
            return new Page(chromium.evaluate("document.documentElement.outerHTML").asText(), chromium.console(),
                    chromium.requests());
        }
    }

    /** The top 1280 × 2400 pixels of the page once it is drawn. */
    public void screenshot(Path html, Path png, Path workDir) throws IOException, InterruptedException {
        Files.createDirectories(png.getParent());
        try (DevToolsSession chromium = DevToolsSession.start(executable, workDir, FLAGS)) {
            chromium.call("Emulation.setDeviceMetricsOverride",
                    Map.of("width", 1280, "height", 2400, "deviceScaleFactor", 1, "mobile", false));
            openDrawn(chromium, html.toUri());
            String data = chromium.call("Page.captureScreenshot", Map.of("format", "png")).path("data").asText();
            Files.write(png, Base64.getDecoder().decode(data));
        }
    }

    /** Navigates and waits for the page's own mark; a page that never marks itself is returned as it is then. */
    private static void openDrawn(DevToolsSession chromium, URI page) throws IOException, InterruptedException {
        chromium.navigate(page);
        long deadline = System.nanoTime() + RENDER_TIMEOUT_MS * 1_000_000;
        while (chromium.evaluate(RENDER_MARK).asText().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
    }
}
