package dev.gauntlet.runner.execution;

import dev.gauntlet.runner.results.ResultRow;
import dev.gauntlet.runner.results.ResultsStore;
import dev.gauntlet.runner.results.Resolution;
import dev.gauntlet.runner.statistics.Estimate;
import dev.gauntlet.runner.suite.RunPlan;
import dev.gauntlet.runner.suite.Suite;
import dev.gauntlet.runner.suite.UntilResolved;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * After a suite's own forks, one fork more at a time of the targets whose ranked pairs are not resolved
 * ({@link Resolution}), until every pair is, or the next fork would pass the rule's most forks, or the suite has run
 * its minutes. A line before each fork says what is left to resolve; the last says the precision reached.
 *
 * <pre>{@code
 * new ForksUntilResolved(suite, rule, store, System.err).run(runner, began, interruption::happened);
 * // gauntlet: fork 5 of at most 8 for dummy, tomcat-servlet-sync: 1 of 13 ranked pairs not resolved (...)
 * }</pre>
 */
public final class ForksUntilResolved {
    private final Suite suite;
    private final UntilResolved rule;
    private final ResultsStore store;
    private final PrintStream progress;

    public ForksUntilResolved(Suite suite, UntilResolved rule, ResultsStore store, PrintStream progress) {
        this.suite = suite;
        this.rule = rule;
        this.store = store;
        this.progress = progress;
    }

    /** Adds forks with {@code runner} while pairs are not resolved and the bounds allow; returns the resolution reached. */
    public Resolution run(SuiteRunner runner, Instant began, BooleanSupplier stopping) {
        Resolution resolution = Resolution.of(store.rows(), suite, Estimate.DEFAULT_CONFIDENCE);
        while (!resolution.resolved() && !stopping.getAsBoolean()) {
            List<String> targets = resolution.targets();
            int next = store.rows().stream().filter(row -> targets.contains(row.target())).mapToInt(ResultRow::fork)
                    .max().orElse(0) + 1;
            Duration spent = Duration.between(began, Instant.now());
            if (next > rule.maxForks() || spent.toMinutes() >= rule.maxMinutes()) {
                progress.printf(Locale.ROOT, "gauntlet: until resolved: stopped at %s; %s%n",
                        next > rule.maxForks() ? rule.maxForks() + " forks, the most allowed"
                                : spent.toMinutes() + " minutes, the most allowed", resolution.describe());
                return resolution;
            }
            progress.printf(Locale.ROOT, "gauntlet: until resolved: fork %d of at most %d for %s: %s%n", next,
                    rule.maxForks(), String.join(", ", targets), resolution.describe());
            runner.run(RunPlan.fork(suite, next, targets));
            resolution = Resolution.of(store.rows(), suite, Estimate.DEFAULT_CONFIDENCE);
        }
        if (resolution.resolved()) {
            progress.println("gauntlet: until resolved: " + resolution.describe());
        }
        return resolution;
    }
}
