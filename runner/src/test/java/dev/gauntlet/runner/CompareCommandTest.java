package dev.gauntlet.runner;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code gauntlet compare}'s summary on results directories written here (suite.json and results.json only, as an
 * interrupted suite leaves them): the real suites' pages are checked in a browser by {@code ReportIT}.
 */
class CompareCommandTest {

    @Test
    void aLongListOfRowsNotComparedIsCutShortOnStdoutAndKeptWholeInThePage(@TempDir Path dir) throws Exception {
        int generatorLimited = 12;
        Path base = resultsDir(dir.resolve("base"), generatorLimited);
        Path now = resultsDir(dir.resolve("new"), generatorLimited);
        StringWriter out = new StringWriter();

        int exit = new CommandLine(new GauntletCommand()).setOut(new PrintWriter(out, true))
                .execute("compare", base.toString(), now.toString(), "--fail-on", "p99=+10%");

        assertThat(exit).isZero();
        long listed = out.toString().lines().filter(l -> l.startsWith("not compared: c") && l.contains(" in ")).count();
        assertThat(listed).isEqualTo(CompareCommand.NOT_COMPARED_LISTED);
        int more = 2 * generatorLimited - CompareCommand.NOT_COMPARED_LISTED;
        assertThat(out.toString()).contains("not compared: " + more + " more, each listed in " + now.resolve("compare.html"),
                "thresholds p99=+10%: all hold");
        String page = Files.readString(now.resolve("compare.html"));
        assertThat(page).containsPattern("\"row\"\\s*:\\s*\"c11 · s #1 in NEW\",\\s*\"reason\"\\s*:\\s*\"generator-limited\"");
    }

    /** One row judged ok (target a) and {@code generatorLimited} rows that are not the targets' figures. */
    private static Path resultsDir(Path dir, int generatorLimited) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("suite.json"), "{\"suite\": {\"name\": \"t\"}}");
        String rows = IntStream.range(0, generatorLimited)
                .mapToObj(i -> row("c" + i, "generator-limited"))
                .collect(Collectors.joining(",", "[" + row("a", "ok") + ",", "]"));
        Files.writeString(dir.resolve("results.json"), rows);
        return dir;
    }

    private static String row(String target, String verdict) {
        return """
                {"target": "%s", "scenario": "s", "repetition": 1, "verdict": "%s", "p50Ms": 1, "p99Ms": 2, "p999Ms": 3,
                 "maxMs": 4, "errors": 0, "achievedRatePerSec": 100}""".formatted(target, verdict);
    }
}
