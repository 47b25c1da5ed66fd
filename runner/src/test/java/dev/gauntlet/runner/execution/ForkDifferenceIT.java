package dev.gauntlet.runner.execution;

import dev.gauntlet.api.Json;
import dev.gauntlet.runner.Main;
import dev.gauntlet.runner.results.LatencyDiffTable;
import dev.gauntlet.runner.results.ResultRow;
import dev.gauntlet.runner.statistics.Contrast;
import dev.gauntlet.runner.statistics.Estimate;
import dev.gauntlet.targets.dummy.Spin100DummyServer;
import dev.gauntlet.targets.dummy.Spin50DummyServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Differences whose size is known, found with real processes, one request at a time, in forks that start each target
 * afresh in turn. The dummies that spin 50 and 100 µs of CPU per answer, forks added until both differ from the dummy
 * ({@code --until-resolved}), must each be found slower than the dummy by no less than they spin, and apart by an
 * interval that holds the 50 µs between them: against the dummy a round trip also pays what waking from a longer wait
 * costs this host (0.6–29 µs over the hosts measured), which both spins pay alike. The dummy against itself (a second
 * JVM of it, named {@code dummy@http1}) must show no difference worth the name.
 */
@Tag("alone") // a difference of round trips: timing, which other builds beside it would blur
class ForkDifferenceIT {
    /** {@code dummy-spin-50us  3  ...  +51.2  +48.0–+54.4  +51.2 µs}: the difference, its interval, the verdict. */
    private static final Pattern SPIN_ROW = Pattern.compile(
            "(dummy-spin-\\d+us)\\s+(\\d+)\\s+\\d+\\s+\\d+\\s+([+-][0-9.]+)\\s+([+-][0-9.]+)–([+-][0-9.]+)\\s+(.+)");

    /**
     * How far the interval between the two spins may miss their 50 µs: a 100 µs spin's client waits 50 µs longer
     * than a 50 µs spin's, which still costs a host a little (2026-12-06, quiet: the spins 52.4 µs apart, 95 % CI
     * 50.7–54.1, 4 forks, where against the dummy they cost +51.4 and +103.7): a tenth of the 50 µs.
     */
    private static final double SPIN_ALLOWANCE_MICROS = 5;

    /**
     * The level the dummy is compared with itself at: at 95 % one such comparison in twenty is resolved by chance
     * (ContrastTest counts it), at 99.9 % one in a thousand. Forks on this VM differ by ±8 µs from its own steps.
     */
    private static final double SAME_TARGET_CONFIDENCE = 0.999;

    @TempDir
    Path work;

    @Test
    void theSameTargetTwiceShowsNoDifferenceWorthTheName() throws Exception {
        Path dir = oneAtATime("it-same", "[dummy, dummy@http1]", "--forks", "4");

        List<ResultRow> rows = List.of(Json.json().readValue(dir.resolve("results.json").toFile(), ResultRow[].class));
        assertThat(rows).hasSize(8);
        String table = LatencyDiffTable.render(rows, SAME_TARGET_CONFIDENCE);
        assertThat(LatencyDiffTable.differences(rows, SAME_TARGET_CONFIDENCE).get("dummy@http1").resolved()).as(table)
                .isFalse();
        assertThat(table.lines().filter(line -> line.startsWith("dummy@http1 "))).as(table).singleElement()
                .asString().contains("none detectable");
    }

    @Test
    void aKnownServiceCostIsFoundWithAnIntervalThatHoldsIt() throws Exception {
        Path dir = oneAtATime("it-diff", "[dummy, dummy-spin-50us, dummy-spin-100us]", "--forks", "3",
                "--until-resolved", "--max-forks", "5");

        List<ResultRow> rows = List.of(Json.json().readValue(dir.resolve("results.json").toFile(), ResultRow[].class));
        int forks = rows.stream().mapToInt(ResultRow::fork).max().orElseThrow();
        assertThat(forks).isBetween(3, 5);
        assertThat(rows).hasSize(3 * forks);
        assertThat(dir.resolve("runs/dummy/one/f3-1/summary.json")).exists();
        assertThat(dir.resolve("intervals.json")).content().contains("\"samples\" : " + forks);

        String table = LatencyDiffTable.render(rows);
        Map<String, Matcher> spins = table.lines().map(SPIN_ROW::matcher).filter(Matcher::matches)
                .collect(Collectors.toMap(row -> row.group(1), row -> row));
        assertThat(spins).as(table).containsOnlyKeys("dummy-spin-50us", "dummy-spin-100us");
        Map<String, Long> spun = Map.of("dummy-spin-50us", Spin50DummyServer.SERVICE_MICROS,
                "dummy-spin-100us", Spin100DummyServer.SERVICE_MICROS);
        spins.forEach((target, row) -> {
            assertThat(row.group(2)).isEqualTo(Integer.toString(forks));
            assertThat(row.group(6)).as(table).endsWith(" µs").doesNotContain("none detectable");
            assertThat(Double.parseDouble(row.group(5))).as(table).isGreaterThanOrEqualTo(spun.get(target));
        });

        // The spins against each other, fork by fork, as the table takes each against the dummy.
        Contrast apart = LatencyDiffTable.difference(rows, "dummy-spin-100us", "dummy-spin-50us",
                Estimate.DEFAULT_CONFIDENCE).orElseThrow();
        double spunApart = Spin100DummyServer.SERVICE_MICROS - Spin50DummyServer.SERVICE_MICROS;
        assertThat(apart.low()).as("%s\n%s", apart, table).isLessThanOrEqualTo(spunApart + SPIN_ALLOWANCE_MICROS);
        assertThat(apart.high()).as("%s\n%s", apart, table).isGreaterThanOrEqualTo(spunApart - SPIN_ALLOWANCE_MICROS);
    }

    /**
     * Runs {@code targets} (a YAML list) one request at a time on one connection, as latency-diff does, with
     * {@code run}'s {@code flags}, without calibration; returns its results directory. The generator's JIT warm-up
     * (3 s a run, 17 runs) is left out: a difference is taken fork by fork between runs of one generator build, and
     * the second of warm-up at 16,000 round trips a second compiles the one connection's path before it is measured.
     */
    private Path oneAtATime(String name, String targets, String... flags) throws Exception {
        Path suite = Files.writeString(work.resolve(name + ".yaml"), """
                name: %s
                targets: %s
                table: latency-diff
                jvm: { target: [-Xmx256m], generator: [-Xmx256m, -Dgauntlet.jitWarmup=false] }
                scenarios:
                  - name: one
                    load: { type: closed, connections: 1 }
                    warmupMs: 1000
                    durationMs: 1500
                """.formatted(name, targets));
        Path results = work.resolve(name);
        List<String> args = new ArrayList<>(List.of("run", "--suite", suite.toString(), "--results", results.toString(),
                "--no-calibration"));
        args.addAll(List.of(flags));

        assertThat(Main.execute(args.toArray(String[]::new))).isZero();

        try (Stream<Path> dirs = Files.list(results)) {
            return dirs.findFirst().orElseThrow();
        }
    }
}
