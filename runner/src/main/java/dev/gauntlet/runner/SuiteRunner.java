package dev.gauntlet.runner;

import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a suite: for each target, one target JVM for all its scenarios and repetitions, and one
 * generator JVM per run. Prints a progress line per run and stores each row as soon as it is
 * measured. A target that fails to start or dies is recorded and the suite goes on with the next.
 */
final class SuiteRunner {
    private static final Duration DEATH_GRACE = Duration.ofSeconds(1);
    private static final Pattern MAX_IN_FLIGHT = Pattern.compile("\"maxInFlight\"\\s*:\\s*(\\d+)");

    private final TargetLauncher targets;
    private final GeneratorLauncher generator;
    private final ResultsStore store;
    private final PrintStream progress;
    private final List<String> failures = new ArrayList<>();
    private int runsDone;

    SuiteRunner(TargetLauncher targets, GeneratorLauncher generator, ResultsStore store, PrintStream progress) {
        this.targets = targets;
        this.generator = generator;
        this.store = store;
        this.progress = progress;
    }

    /** Runs every target × scenario × repetition; returns one-line descriptions of what went wrong. */
    List<String> run(Suite suite) {
        int runsTotal = suite.targets().size() * suite.scenarios().size() * suite.repetitions();
        for (String name : suite.targets()) {
            TargetProcess target;
            try {
                target = targets.start(name, List.of(), store.targetDir(name).resolve("target.log"));
            } catch (UserError e) {
                failures.add(e.getMessage());
                String note = e.rowNote() == null ? "target did not start" : "target did not start: " + e.rowNote();
                forEachRun(suite, (scenario, rep) -> record(runsTotal, ResultRow.failed(name, scenario, rep, note)));
                continue;
            }
            try (target) {
                store.writeServedJson(store.targetDir(name).resolve("settings.json"), target.settings());
                store.writeJson(store.targetDir(name).resolve("isolation.json"), target.isolation());
                forEachRun(suite, (scenario, rep) -> record(runsTotal, measure(target, scenario, rep, runsTotal)));
            }
        }
        return List.copyOf(failures);
    }

    private ResultRow measure(TargetProcess target, Suite.Scenario scenario, int rep, int runsTotal) {
        String name = target.entry().name();
        if (!target.isAlive()) {
            return ResultRow.failed(name, scenario, rep, "skipped: target died earlier");
        }
        progress.printf(Locale.ROOT, "[%d/%d] %s · %s #%d: %s, wait %d ms, %.0f s ...%n", runsDone + 1, runsTotal, name, scenario.name(), rep,
                scenario.load().describe(), scenario.waitMs(), (scenario.warmupMs() + scenario.durationMs()) / 1000.0);
        var runDir = store.runDir(name, scenario.name(), rep);
        RunSummary summary;
        Instant runStart = Instant.now();
        try {
            // The generator resets the counts again as its measured phase begins, except for max concurrency,
            // which reads them at its burst: this reset keeps a previous scenario's counts out of that one.
            target.resetStats();
            // Through the admin URL the generator reads the target's counts, CPU time and hiccups.
            LoadSpec spec = scenario.toSpec(target.uri("/hello?wait=" + scenario.waitMs()), target.adminUri("/"));
            summary = generator.run(spec, runDir);
        } catch (UserError e) {
            // A target killed mid-call fails the call a moment before its exit is seen.
            boolean died = target.exitsWithin(DEATH_GRACE);
            failures.add(name + " · " + scenario.name() + ": " + (died ? target.deathNotice() : e.getMessage()));
            return ResultRow.failed(name, scenario, rep, died ? target.diedNote() : "run failed");
        }
        summary = summary.withJvm(JvmCosts.collect(runDir, target.isAlive() ? target.pid() : -1, runStart, Instant.now(), summary));
        store.writeJson(runDir.resolve("summary.json"), summary);
        if (!target.isAlive()) {
            failures.add(name + " · " + scenario.name() + ": " + target.deathNotice());
            return ResultRow.of(name, scenario, rep, summary, null, target.diedNote());
        }
        // The generator reset the target's counts as its measured phase began: this is that phase's.
        String stats = target.stats();
        store.writeServedJson(runDir.resolve("stats.json"), stats);
        return ResultRow.of(name, scenario, rep, summary, maxInFlight(stats), null);
    }

    private void record(int runsTotal, ResultRow row) {
        store.add(row);
        runsDone++;
        progress.printf(Locale.ROOT, "[%d/%d] %s · %s: %d requests, %.0f/s, p99 %s ms, %d errors, %s%s%n", runsDone,
                runsTotal, row.target(), row.scenario(), row.requests(), row.achievedRatePerSec(),
                ResultsTable.millis(row.p99Ms()), row.errors(), row.verdict().equals(ResultRow.NO_VERDICT) ? "no verdict" : row.verdict(),
                row.note().isEmpty() ? "" : " — " + row.note());
    }

    private static Long maxInFlight(String statsJson) {
        Matcher m = MAX_IN_FLIGHT.matcher(statsJson);
        return m.find() ? Long.parseLong(m.group(1)) : null;
    }

    private static void forEachRun(Suite suite, RunAction action) {
        for (Suite.Scenario scenario : suite.scenarios()) {
            for (int rep = 1; rep <= suite.repetitions(); rep++) {
                action.run(scenario, rep);
            }
        }
    }

    @FunctionalInterface
    private interface RunAction {
        void run(Suite.Scenario scenario, int repetition);
    }
}
