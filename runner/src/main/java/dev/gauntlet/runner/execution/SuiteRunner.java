package dev.gauntlet.runner.execution;

import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.Numbers;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunJvmCosts;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.metrics.JvmCosts;
import dev.gauntlet.runner.results.ResultRow;
import dev.gauntlet.runner.results.ResultsStore;
import dev.gauntlet.runner.results.ResultsTable;
import dev.gauntlet.runner.suite.RunPlan;
import dev.gauntlet.runner.suite.Suite;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * Runs a suite's {@link RunPlan}: a target JVM per session, a generator JVM per run. Prints a
 * progress line per run and stores each row as soon as it is measured. A target that fails to
 * start is recorded and the plan goes on with the next session; a target that dies, or stops
 * answering on its serving port while it lives ({@link TargetProcess#answers()}, asked before each
 * run), is started again, once per session, for its next scenario, and the rows after say so.
 * Between two runs on one target JVM it waits for what the first left at the target
 * ({@link TargetDrain}); the second's row says what was left when that wait gave up.
 *
 * <pre>{@code
 * List<String> failures = new SuiteRunner(targets, generator, store, System.err, () -> false).run(RunPlan.of(suite));
 * }</pre>
 */
public final class SuiteRunner {
    private static final Duration DEATH_GRACE = Duration.ofSeconds(1);

    private final SuiteTargets targets;
    private final SuiteGenerator generator;
    private final ResultsStore store;
    private final PrintStream progress;
    /** True once the runner is being stopped by a signal: a row measured then would be the stop's, not the target's. */
    private final BooleanSupplier stopping;
    private final List<String> failures = new ArrayList<>();
    private int runsTotal;
    private int runsDone;
    /** Whether the plan starts a target more than once: then a run's label names its fork. */
    private boolean forked;

    public SuiteRunner(SuiteTargets targets, SuiteGenerator generator, ResultsStore store, PrintStream progress,
                BooleanSupplier stopping) {
        this.targets = targets;
        this.generator = generator;
        this.store = store;
        this.progress = progress;
        this.stopping = stopping;
    }

    /** One-line descriptions of what went wrong in every plan this runner ran. */
    public List<String> failures() {
        return List.copyOf(failures);
    }

    /** Runs every session of the plan; returns one-line descriptions of what went wrong, in it and every plan before. */
    public List<String> run(RunPlan plan) {
        // A plan after the first (a fork added until resolved) counts on from the runs before it.
        runsTotal = runsDone + plan.recordedRuns();
        forked = plan.forks() > 1;
        for (RunPlan.Session session : plan.sessions()) {
            if (stopping.getAsBoolean()) {
                break;
            }
            new SessionRun(session).run();
        }
        return List.copyOf(failures);
    }

    /** One session: its target JVM, restarted at most once, and its runs in order. */
    private final class SessionRun {
        private final RunPlan.Session session;
        private final String name;
        private SuiteTarget target;
        private boolean restarted;
        /** The scenario the target died or stopped answering in; null while it has not. */
        private String lostIn;
        /** How it was lost: {@code died} or {@code stopped answering}. */
        private String lost;
        /** The scenario whose run found the target alive but silent at its end, and said so; null if none. */
        private String silentIn;
        /** The scenario of the last run measured: where the target was lost when a run finds it gone. */
        private String lastScenario = "its start";
        /** The wait of the previous run's requests, which the target may still be serving. */
        private long previousWaitMs;
        /** Whether a run has loaded this target JVM: only then is there anything to drain before the next. */
        private boolean loaded;

        SessionRun(RunPlan.Session session) {
            this.session = session;
            this.name = session.target();
        }

        void run() {
            try {
                target = start();
            } catch (UserError e) {
                failures.add(e.getMessage());
                // Said now, not only as the first failure at the end: a later one would hide why this target has no rows.
                progress.println("gauntlet: " + e.getMessage());
                String note = e.rowNote() == null ? "target did not start" : "target did not start: " + e.rowNote();
                session.runs().forEach(run -> record(run, ResultRow.failed(name, run, note)));
                return;
            }
            try {
                for (RunPlan.Run run : session.runs()) {
                    if (stopping.getAsBoolean()) {
                        break;
                    }
                    record(run, measureOrSkip(run));
                }
            } finally {
                target.close();
            }
        }

        private ResultRow measureOrSkip(RunPlan.Run run) {
            String leftover = loaded && target.isAlive() ? TargetDrain.afterRun(target, previousWaitMs) : null;
            boolean alive = target.isAlive();
            if (!alive || !target.endpoint().answers()) {
                if (lostIn == null) {
                    lostIn = lastScenario;
                    lost = alive ? "stopped answering" : "died";
                    if (alive && !lastScenario.equals(silentIn)) {
                        // A target that died, or went silent to the run itself, told why in that run.
                        failures.add(String.format(Locale.ROOT, "%s stopped answering on its serving port after %s "
                                + "(its log is in %s); it was stopped", name, lostIn, store.targetDir(name)));
                    }
                }
                if (restarted || run.scenario().name().equals(lostIn)) {
                    return ResultRow.failed(name, run, "skipped: target " + lost + " earlier");
                }
                if (!restartAfterLoss(run)) {
                    return ResultRow.failed(name, run,
                            "skipped: target " + lost + " and did not start again");
                }
                leftover = null;
            }
            lastScenario = run.scenario().name();
            ResultRow row = measure(run, leftover);
            return restarted ? row.remarked("target restarted after it " + lost + " in " + lostIn) : row;
        }

        private boolean restartAfterLoss(RunPlan.Run run) {
            target.close();
            restarted = true;
            progress.printf(Locale.ROOT, "gauntlet: %s %s in %s; starting it again (once) for %s%n", name, lost, lostIn,
                    run.scenario().name());
            try {
                target = start();
                previousWaitMs = 0;
                loaded = false;
                return true;
            } catch (UserError e) {
                failures.add(e.getMessage());
                progress.println("gauntlet: " + e.getMessage());
                return false;
            }
        }

        private SuiteTarget start() {
            SuiteTarget started = targets.start(name, store.nextTargetLog(name));
            store.writeServedJson(store.targetDir(name).resolve("settings.json"), started.endpoint().settings());
            store.writeJson(store.targetDir(name).resolve("isolation.json"), started.isolation());
            return started;
        }

        /** @param leftover what the previous run left at the target ({@link TargetDrain}), or null */
        private ResultRow measure(RunPlan.Run run, String leftover) {
            Suite.Scenario scenario = run.scenario();
            progress.printf(Locale.ROOT, "[%s] %s · %s%s: %s, wait %d ms, %s ...%n",
                    run.recorded() ? (runsDone + 1) + "/" + runsTotal : "warm-up", name, scenario.name(),
                    run.recorded() ? " " + run.label(forked) : "", scenario.load().describe(), scenario.waitMs(),
                    scenario.phases());
            var runDir = store.freshRunDir(name, run);
            previousWaitMs = scenario.waitMs();
            loaded = true;
            RunSummary summary;
            Instant runStart = Instant.now();
            try {
                // The generator resets the counts again as its measured phase begins, except for max concurrency,
                // which reads them at its burst: this reset keeps a previous scenario's counts out of that one.
                target.endpoint().resetStats();
                // Through the admin URL the generator reads the target's counts, CPU time and hiccups; its token resets them.
                LoadSpec spec = target.endpoint().speakingTo(
                        scenario.toSpec(target.endpoint().uri("/hello?wait=" + scenario.waitMs()), target.endpoint().adminUri("/")));
                summary = generator.run(spec, target.endpoint().adminToken(), runDir);
            } catch (UserError e) {
                // A target killed mid-call fails the call a moment before its exit is seen.
                boolean died = target.exitsWithin(DEATH_GRACE);
                failures.add(name + " · " + scenario.name() + ": " + (died ? target.deathNotice() : e.getMessage()));
                return ResultRow.failed(name, run, died ? target.diedNote() : "run failed");
            }
            // summary.json stays the generator's: what the runner adds of the run goes beside it.
            Instant runEnd = Instant.now();
            String noRecording = target.copyRecording(runStart, runEnd, new RunDirectory(runDir).targetJfr());
            RunJvmCosts jvm = JvmCosts.collect(runDir, noRecording, runStart, runEnd, summary);
            store.writeJson(new RunDirectory(runDir).jvm(), jvm);
            if (!target.isAlive()) {
                failures.add(name + " · " + scenario.name() + ": " + target.deathNotice());
                return ResultRow.of(name, run, summary, jvm, null, target.diedNote());
            }
            // The generator reset the target's counts as its measured phase began: this is that phase's.
            String stats;
            try {
                stats = target.endpoint().stats();
            } catch (UserError e) {
                // Alive and silent: the next run restarts it; this run's figures are kept.
                failures.add(name + " · " + scenario.name() + ": " + e.getMessage());
                silentIn = scenario.name();
                return ResultRow.of(name, run, summary, jvm, null, "target stopped answering");
            }
            store.writeServedJson(new RunDirectory(runDir).stats(), stats);
            ResultRow row = ResultRow.of(name, run, summary, jvm, TargetEndpoint.statsField(stats, "maxInFlight"), null);
            String cap = target.entry().concurrencyCap();
            if (cap != null && scenario.load().holdsRequests()) {
                // What bounds how many it took on, when that is the target's own limit rather than the machine's.
                row = row.remarked("cap: " + cap);
            }
            return leftover == null ? row : row.remarked(leftover);
        }
    }

    private void record(RunPlan.Run run, ResultRow row) {
        if (stopping.getAsBoolean()) {
            return; // the run was cut short by the stop: --resume measures it
        }
        if (!run.recorded()) {
            if (!row.measured()) {
                progress.printf(Locale.ROOT, "gauntlet: %s · %s (warm-up): %s%n", row.target(), row.scenario(), row.note());
            }
            return;
        }
        store.add(row);
        runsDone++;
        // Held requests never complete: what counts is how many the server took on at once.
        String figures = run.scenario().load().holdsRequests()
                ? String.format(Locale.ROOT, "the server took on %s at once", row.serverMaxInFlight() == null ? "?" : row.serverMaxInFlight())
                : String.format(Locale.ROOT, "%d requests, %.0f/s, p99 %s ms", row.requests(), row.achievedRatePerSec(),
                Numbers.millis(row.p99Ms()));
        progress.printf(Locale.ROOT, "[%d/%d] %s · %s: %s, %d errors, %s%s%n", runsDone, runsTotal, row.target(),
                row.scenario(), figures, row.errors(), row.measured() ? row.verdict().label() : "no verdict",
                row.note().isEmpty() ? "" : " — " + row.note());
    }
}
