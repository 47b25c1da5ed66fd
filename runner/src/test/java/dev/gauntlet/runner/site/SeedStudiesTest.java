package dev.gauntlet.runner.site;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.runner.results.RowFigure;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Each outcome of a seed finding on rows whose answer is known: three forks a target, their p99s set here. */
class SeedStudiesTest {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Test
    void aFindingIsReproducedContradictedOrUndecidedByItsIntervalOverForks() {
        StudyRun run = run("realistic", new double[] {100, 102, 101}, new double[] {150, 149, 152},
                new double[] {99, 130, 160});
        SeedStudies.Finding quicker = finding("fast", "slow", null);
        SeedStudies.Finding slower = finding("slow", "fast", null);
        SeedStudies.Finding spread = finding("wide", "fast", null);

        assertThat(quicker.decide(run).outcome()).isEqualTo(SeedStudies.Outcome.REPRODUCED);
        assertThat(quicker.decide(run).sentence()).startsWith("fast is 32.8 % quicker than slow (95 % CI"); // 101 against 150.3
        assertThat(slower.decide(run).outcome()).isEqualTo(SeedStudies.Outcome.CONTRADICTED);
        assertThat(spread.decide(run).outcome()).as("a wide target against a fast one").isEqualTo(SeedStudies.Outcome.NO_DIFFERENCE);
        assertThat(spread.decide(run).sentence()).startsWith("no difference detectable");
    }

    @Test
    void alikeIsReproducedWithoutADifferenceAndContradictedByOne() {
        StudyRun run = run("realistic", new double[] {100, 102, 101}, new double[] {150, 149, 152},
                new double[] {99, 130, 160});

        assertThat(finding(null, null, List.of("fast", "wide")).decide(run).outcome()).isEqualTo(SeedStudies.Outcome.REPRODUCED);
        assertThat(finding(null, null, List.of("fast", "slow")).decide(run).outcome()).isEqualTo(SeedStudies.Outcome.CONTRADICTED);
    }

    @Test
    void anEntryOrCaseNotRunIsNotMeasuredHere() {
        SeedStudies.Decision missing = finding("fast", "absent", null)
                .decide(run("realistic", new double[] {1}, new double[] {2}, new double[] {3}));
        assertThat(missing.outcome()).isEqualTo(SeedStudies.Outcome.NOT_MEASURED);
        assertThat(missing.sentence()).isEqualTo("absent has no p99 in realistic here");
        assertThat(finding("fast", "slow", null).decide(run("overhead", new double[] {1}, new double[] {2}, new double[] {3}))
                .outcome()).as("another case").isEqualTo(SeedStudies.Outcome.NOT_MEASURED);
    }

    @Test
    void everyBuiltInFindingNamesAFigureRowsHaveAndTwoEntries() {
        List<SeedStudies.Study> studies = SeedStudies.builtIn();
        assertThat(studies).extracting(SeedStudies.Study::suite).contains("server", "throughput", "latency-diff", "sweep", "client");
        studies.forEach(study -> study.findings().forEach(f -> {
            assertThat(RowFigure.named(f.figure())).as(f.said()).isNotNull();
            assertThat(f.alike() == null ? f.better() != null && f.than() != null : f.alike().size() == 2).as(f.said()).isTrue();
        }));
    }

    private static SeedStudies.Finding finding(String better, String than, List<String> alike) {
        return new SeedStudies.Finding("said", "realistic", "p99", better, than, alike);
    }

    /** A run of one case whose targets fast, slow and wide had these p99s in forks 1, 2 and 3. */
    private static StudyRun run(String caseName, double[] fast, double[] slow, double[] wide) {
        ObjectNode data = NODES.objectNode();
        data.putObject("suite").put("name", "server");
        ArrayNode rows = data.putArray("rows");
        for (String target : List.of("fast", "slow", "wide")) {
            double[] p99 = target.equals("fast") ? fast : target.equals("slow") ? slow : wide;
            for (int fork = 0; fork < p99.length; fork++) {
                rows.addObject().put("target", target).put("scenario", caseName).put("fork", fork + 1)
                        .put("requests", 1000).put("p99Ms", p99[fork]);
            }
        }
        return new StudyRun("id", Path.of("results/server-1"), data, Instant.EPOCH, "server");
    }
}
