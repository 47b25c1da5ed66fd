package dev.gauntlet.runner.execution;

import dev.gauntlet.api.Json;
import dev.gauntlet.runner.Main;
import dev.gauntlet.runner.results.LatencyDiffTable;
import dev.gauntlet.runner.results.ResultRow;
import dev.gauntlet.targets.dummy.SpinningDummyServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Differences whose size is known, found with real processes, one request at a time, in forks that start each target
 * afresh in turn: the dummy against the dummy that spins 50 µs of CPU per answer, forks added until the difference is
 * resolved ({@code --until-resolved}), must be resolved with an interval that holds the 50 µs (or passes it by no
 * more than a longer sleep's wake-up costs the client); the dummy against itself (a second JVM of it, named
 * {@code dummy@http1}) must show none worth the name.
 */
@Tag("alone") // a difference of round trips: timing, which other builds beside it would blur
class ForkDifferenceIT {
    /** {@code dummy-spin-50us  3  ...  +51.2  +48.0–+54.4  +51.2 µs}: the difference, its interval, the verdict. */
    private static final Pattern SPIN_ROW = Pattern.compile(
            "dummy-spin-50us\\s+(\\d+)\\s+\\d+\\s+\\d+\\s+([+-][0-9.]+)\\s+([+-][0-9.]+)–([+-][0-9.]+)\\s+(.+)");

    /**
     * What a round trip gains beyond the 50 µs spun: the client sleeps 50 µs longer for each answer, and waking from a
     * longer sleep costs this VM a little more. Four forks on a quiet host put the difference at +50.6 µs (95 % CI
     * 50.2–51.0): an interval that narrow holds 50.6, not 50, so its lower bound may pass 50 by this much.
     */
    private static final double WAKE_ALLOWANCE_MICROS = 2;

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
        Path dir = oneAtATime("it-diff", "[dummy, dummy-spin-50us]", "--until-resolved", "--max-forks", "4");

        List<ResultRow> rows = List.of(Json.json().readValue(dir.resolve("results.json").toFile(), ResultRow[].class));
        // One fork has no interval: a second at least was added, both targets in each.
        int forks = rows.stream().mapToInt(ResultRow::fork).max().orElseThrow();
        assertThat(forks).isBetween(2, 4);
        assertThat(rows).hasSize(2 * forks);
        assertThat(dir.resolve("runs/dummy/one/f2-1/summary.json")).exists();
        assertThat(dir.resolve("intervals.json")).content().contains("\"samples\" : " + forks);

        String table = LatencyDiffTable.render(rows);
        Matcher spin = table.lines().map(SPIN_ROW::matcher).filter(Matcher::matches).findFirst().orElseThrow(
                () -> new AssertionError("no dummy-spin-50us row with an interval in:\n" + table));
        double low = Double.parseDouble(spin.group(3));
        double high = Double.parseDouble(spin.group(4));
        assertThat(spin.group(1)).isEqualTo(Integer.toString(forks));
        assertThat(spin.group(5)).as(table).endsWith(" µs").doesNotContain("none detectable");
        assertThat(low).as(table).isPositive().isLessThanOrEqualTo(SpinningDummyServer.SERVICE_MICROS + WAKE_ALLOWANCE_MICROS);
        assertThat(high).as(table).isGreaterThanOrEqualTo(SpinningDummyServer.SERVICE_MICROS);
    }

    /**
     * Runs {@code targets} (a YAML list) one request at a time on one connection, as latency-diff does, with
     * {@code run}'s {@code flags}, without calibration; returns its results directory.
     */
    private Path oneAtATime(String name, String targets, String... flags) throws Exception {
        Path suite = Files.writeString(work.resolve(name + ".yaml"), """
                name: %s
                targets: %s
                table: latency-diff
                jvm: { target: [-Xmx256m], generator: [-Xmx256m] }
                scenarios:
                  - name: one
                    load: { type: closed, connections: 1 }
                    warmupMs: 1500
                    durationMs: 2000
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
