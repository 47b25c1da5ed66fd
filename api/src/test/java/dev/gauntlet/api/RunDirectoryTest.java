package dev.gauntlet.api;

import dev.gauntlet.api.RunDirectory.HistogramLog;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The names of a results directory's files are what results directories written before hold: old ones still load. */
class RunDirectoryTest {
    private static final Path DIR = Path.of("results", "quick-20261126-153000");

    @Test
    void aRunsFilesKeepTheirNames() {
        RunDirectory run = new RunDirectory(DIR);

        assertThat(Stream.of(run.summary(), run.spec(), run.errors(), run.generatorLog(), run.stats(), run.targetJfr(),
                run.generatorJfr(), run.jvm(), run.shardStart(), run.shardLog()).map(file -> DIR.relativize(file).toString()))
                .containsExactly("summary.json", "spec.json", "errors.csv", "generator.log", "stats.json", "target.jfr",
                        "generator.jfr", "jvm.json", "shard.json", "shard.log");
        assertThat(Arrays.stream(HistogramLog.values()).map(log -> DIR.relativize(run.log(log)).toString()))
                .containsExactly("response.hlog", "service.hlog", "lag.hlog", "hiccup.hlog", "target-hiccup.hlog");
        assertThat(HistogramLog.TARGET_HICCUP.id()).isEqualTo("target-hiccup");
    }

    @Test
    void aResultsDirectoryHoldsItsRunsByTargetScenarioAndRepetition() {
        ResultsDirectory results = new ResultsDirectory(DIR);

        assertThat(results.suite()).isEqualTo(DIR.resolve("suite.json"));
        assertThat(results.results()).isEqualTo(DIR.resolve("results.json"));
        assertThat(results.target("dummy")).isEqualTo(DIR.resolve("runs/dummy"));
        assertThat(results.run("dummy", "open", 1, 2)).isEqualTo(new RunDirectory(DIR.resolve("runs/dummy/open/2")));
        assertThat(results.run("dummy", "open", 3, 1)).isEqualTo(new RunDirectory(DIR.resolve("runs/dummy/open/f3-1")));
    }
}
