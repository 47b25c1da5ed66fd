package dev.gauntlet.runner.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.Json;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The report's log-axis labels (log-axis.js) run by node over spans whose answers are known and over many seeded random
 * spans: every axis gets at least three labels, all inside its range, in order, and not a crowd.
 */
class LogAxisTest {

    @Test
    void everySpanGetsAtLeastThreeLabelsWithinItsRange() throws Exception {
        List<double[]> spans = new ArrayList<>(List.of(
                new double[] {1.01, 2.34}, // a span within one decade that a quarter-span step labelled twice (1.5, 2)
                new double[] {1000, 1010},
                new double[] {0.0123, 0.0171},
                new double[] {9.99, 10.01},
                new double[] {5.1, 51},
                new double[] {0.6, 6.5},
                new double[] {1.5, 2000},
                new double[] {0.001, 100_000}));
        Random random = new Random(41);
        for (int i = 0; i < 2_000; i++) {
            double min = Math.pow(10, random.nextDouble() * 10 - 4);
            spans.add(new double[] {min, min * (1 + Math.pow(10, random.nextDouble() * 5 - 4))});
        }

        JsonNode labels = splits(spans);

        for (int i = 0; i < spans.size(); i++) {
            double min = spans.get(i)[0];
            double max = spans.get(i)[1];
            List<Double> values = new ArrayList<>();
            labels.get(i).forEach(v -> values.add(v.asDouble()));
            assertThat(values).as("labels on the log axis %s–%s", min, max).hasSizeBetween(3, 10).isSorted()
                    .allSatisfy(v -> assertThat(v).isBetween(min * (1 - 1e-9), max * (1 + 1e-9)));
        }
        assertThat(labels.get(0)).as("1.01–2.34 by 0.2").hasSize(6);
        assertThat(labels.get(4).toString()).as("a decade's 1, 2, 5").isEqualTo("[10,20,50]");
    }

    /** GauntletLogAxis.splits of each span, as node computes them from the page's own script. */
    private static JsonNode splits(List<double[]> spans) throws IOException, InterruptedException, URISyntaxException {
        Path script = Path.of(LogAxisTest.class.getResource("/dev/gauntlet/runner/report/log-axis.js").toURI());
        String program = "const axis = require(process.argv[1]);"
                + "const spans = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
                + "process.stdout.write(JSON.stringify(spans.map(([min, max]) => axis.splits(min, max))));";
        Process node = new ProcessBuilder("node", "-e", program, script.toString()).redirectErrorStream(true).start();
        try (var in = node.getInputStream()) {
            node.getOutputStream().write(Json.json().writeValueAsBytes(spans));
            node.getOutputStream().close();
            String out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(node.waitFor(30, TimeUnit.SECONDS)).as("node ended").isTrue();
            assertThat(node.exitValue()).as("node: %s", out).isZero();
            return Json.json().readTree(out);
        } finally {
            node.destroyForcibly();
        }
    }
}
