package dev.gauntlet.runner.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.api.Json;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

/**
 * One self-contained HTML file: the page's template with uPlot's script and stylesheet (read from its webjar),
 * the page's own script and stylesheet, and the data, all inlined, so it opens offline and makes no request:
 *
 * <pre>
 * String html = HtmlPage.render("gauntlet report: quick", data); // data.kind says which page report.js draws
 * String page = HtmlPage.render(HtmlPage.Template.SITE, "gauntlet: results", data); // a page of a site, site.js drawing
 * </pre>
 *
 * Data over {@value #COMPRESS_OVER_BYTES} bytes is embedded gzipped and base64-encoded; the page decodes it
 * with the browser's {@code DecompressionStream}. The page's Content-Security-Policy forbids every fetch, so
 * a request anything tried to make would fail loudly in the console rather than pass unnoticed.
 */
public final class HtmlPage {
    static final int COMPRESS_OVER_BYTES = 200_000;
    private static final String RESOURCES = "/dev/gauntlet/runner/report/";
    private static final String SITE_RESOURCES = "/dev/gauntlet/runner/site/";
    /** The frame of every page: the slots for what is inlined. */
    private static final String FRAME = RESOURCES + "page.html";
    private static final String UPLOT_POM = "/META-INF/maven/org.webjars.npm/uplot/pom.properties";
    private static final Pattern SLOT = Pattern.compile("\\{\\{([A-Z_]+)}}");

    private HtmlPage() {
    }

    /** Which page: the script that draws it, and a stylesheet of its own beside report.css; one frame holds either. */
    public enum Template {
        /** A results directory's report, a comparison: report.js. */
        REPORT(RESOURCES + "report.js", null),
        /** A page of a site of many results directories: site.js, on report.css's colours. */
        SITE(SITE_RESOURCES + "site.js", SITE_RESOURCES + "site.css");

        private final String script;
        private final String stylesheet;

        Template(String script, String stylesheet) {
            this.script = script;
            this.stylesheet = stylesheet;
        }
    }

    public static String render(String title, ObjectNode data) {
        return render(Template.REPORT, title, data);
    }

    public static String render(Template template, String title, ObjectNode data) {
        String uplot = "/META-INF/resources/webjars/uplot/" + uplotVersion() + "/dist/";
        String json;
        try {
            // '<' only occurs inside JSON strings, where \u003c means the same: no "</script>" can end the block.
            json = Json.json().writeValueAsString(data).replace("<", "\\u003c");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the report's data cannot be written as JSON", e);
        }
        boolean compress = json.length() > COMPRESS_OVER_BYTES;
        Map<String, Supplier<String>> slots = Map.of(
                "TITLE", () -> escape(title),
                "UPLOT_CSS", () -> resource(uplot + "uPlot.min.css"),
                "UPLOT_JS", () -> resource(uplot + "uPlot.iife.min.js"),
                "REPORT_CSS", () -> resource(RESOURCES + "report.css"),
                "PAGE_CSS", () -> template.stylesheet == null ? "" : resource(template.stylesheet),
                "LOG_AXIS_JS", () -> resource(RESOURCES + "log-axis.js"),
                "PAGE_DATA_JS", () -> resource(RESOURCES + "page-data.js"),
                "PAGE_JS", () -> resource(template.script),
                "DATA_TYPE", () -> compress ? "application/gzip-base64" : "application/json",
                "DATA", () -> compress ? gzipBase64(json) : json);
        Matcher slot = SLOT.matcher(resource(FRAME));
        StringBuilder page = new StringBuilder();
        while (slot.find()) {
            Supplier<String> value = slots.get(slot.group(1));
            if (value == null) {
                throw new IllegalStateException(FRAME + " has an unknown slot " + slot.group());
            }
            slot.appendReplacement(page, Matcher.quoteReplacement(value.get()));
        }
        slot.appendTail(page);
        return page.toString();
    }

    private static String uplotVersion() {
        Properties pom = new Properties();
        try (InputStream in = HtmlPage.class.getResourceAsStream(UPLOT_POM)) {
            if (in == null) {
                throw new IllegalStateException("uPlot's webjar is not on the classpath: " + UPLOT_POM);
            }
            pom.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pom.getProperty("version");
    }

    private static String resource(String path) {
        try (InputStream in = HtmlPage.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String gzipBase64(String json) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(bytes)) {
            gzip.write(json.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Base64.getEncoder().encodeToString(bytes.toByteArray());
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
