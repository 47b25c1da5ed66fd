package dev.gauntlet.runner;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A results directory with a truncated file, as a run killed mid-write or a full disk leaves one: the report is
 * written all the same, with every other run, and names the file it could not read, on the page and on stderr.
 * Browser-free: the page's embedded data is read as the page's script reads it.
 */
class ReportUnreadableFileIT {
    private static final Pattern DATA = Pattern.compile("<script id=\"report-data\" type=\"([^\"]+)\">(.*?)</script>", Pattern.DOTALL);

    @TempDir
    Path work;

    @Test
    void aTruncatedSummaryCostsTheReportOnlyThatRunAndIsNamed() throws Exception {
        Path suite = Files.writeString(work.resolve("small.yaml"), """
                name: it-report-unreadable
                targets: [dummy]
                jvm: { target: [-Xmx256m], generator: [-Xmx256m] }
                scenarios:
                  - name: one
                    load: { type: closed, connections: 1 }
                    durationMs: 500
                  - name: two
                    load: { type: closed, connections: 1 }
                    durationMs: 500
                """);
        assertThat(Main.execute("run", "--suite", suite.toString(), "--results", work.toString(), "--no-calibration")).isZero();
        Path dir = onlyResultsDir();
        Path broken = dir.resolve("runs/dummy/one/1/summary.json");
        String summary = Files.readString(broken);
        Files.writeString(broken, summary.substring(0, summary.length() / 2));

        GauntletCli.Finished report = GauntletCli.run(Duration.ofSeconds(60), "report", dir.toString());

        assertThat(report.exitCode()).isZero();
        assertThat(report.stdout()).containsExactly(dir.resolve(ReportWriter.FILE_NAME).toString());
        assertThat(report.stderr()).singleElement().asString()
                .startsWith("gauntlet: report: cannot read " + broken + " (Unexpected end-of-input")
                .endsWith("); the page leaves it out and names it");
        JsonNode data = pageData(dir.resolve(ReportWriter.FILE_NAME));
        assertThat(data.path("unreadable")).singleElement().satisfies(file -> {
            assertThat(file.path("file").asText()).isEqualTo("runs/dummy/one/1/summary.json");
            assertThat(file.path("problem").asText()).startsWith("Unexpected end-of-input");
        });
        assertThat(data.path("rows")).extracting(row -> row.path("scenario").asText()).containsExactly("one", "two");
        JsonNode two = data.path("runs").get(1);
        assertThat(two.path("scenario").asText()).isEqualTo("two");
        assertThat(two.path("measuredSec").asDouble()).as("the other run's summary, read").isPositive();
        assertThat(two.path("curves").path("response").path("ms")).as("the other run's percentile curve").isNotEmpty();
        assertThat(data.path("runs").get(0).path("curves").path("response").path("ms"))
                .as("the broken run's interval log, still drawn").isNotEmpty();
    }

    /** The JSON the page embeds, decoded as report.js decodes it. */
    private static JsonNode pageData(Path page) throws IOException {
        Matcher data = DATA.matcher(Files.readString(page, StandardCharsets.UTF_8));
        assertThat(data.find()).as("the page's data block").isTrue();
        String text = data.group(1).equals("application/gzip-base64")
                ? new String(new GZIPInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(data.group(2)))).readAllBytes(),
                StandardCharsets.UTF_8)
                : data.group(2);
        return Json.json().readTree(text);
    }

    private Path onlyResultsDir() throws IOException {
        try (Stream<Path> dirs = Files.list(work)) {
            List<Path> found = dirs.filter(Files::isDirectory).toList();
            assertThat(found).hasSize(1);
            return found.getFirst();
        }
    }
}
