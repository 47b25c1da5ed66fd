package dev.gauntlet.api;

import java.nio.file.Path;

/**
 * The suite-level files of a results directory, each named here once, and where each run's
 * {@link RunDirectory} is: the runner writes them, {@code report} and {@code compare} read them.
 *
 * <pre>{@code
 * ResultsDirectory results = new ResultsDirectory(Path.of("results/quick-20261126-153000"));
 * results.suite();                       // suite.json
 * results.run("dummy", "open", 1, 2);    // runs/dummy/open/2: fork 1, repetition 2
 * results.run("dummy", "open", 3, 1);    // runs/dummy/open/f3-1: fork 3, repetition 1
 * }</pre>
 *
 * @param path the directory {@code ./gauntlet run} wrote
 */
public record ResultsDirectory(Path path) {
    /**
     * The layout and formats this build writes, recorded in {@code suite.json} as {@code formatVersion}; a directory
     * without it was written before the field, in the first. A reader refuses a later one rather than misread it.
     */
    public static final int FORMAT_VERSION = 1;

    /** The suite as it ran, its scaling, environment and platform, each resume's environment. */
    public Path suite() {
        return path.resolve("suite.json");
    }

    /** One row per target × scenario × fork × repetition. */
    public Path results() {
        return path.resolve("results.json");
    }

    /**
     * Each target × scenario's rate, p50, p99 and max with their 95 % confidence intervals over forks, rewritten
     * with results.json.
     */
    public Path intervals() {
        return path.resolve("intervals.json");
    }

    /** The directory of every target's runs. */
    public Path runs() {
        return path.resolve("runs");
    }

    /** One target's directory: its logs, settings and isolation, and its runs. */
    public Path target(String target) {
        return runs().resolve(target);
    }

    /**
     * One run's directory: named for its repetition in fork 1, as every run was named before forks, and
     * {@code f<fork>-<repetition>} in a later fork.
     */
    public RunDirectory run(String target, String scenario, int fork, int repetition) {
        String name = fork == 1 ? Integer.toString(repetition) : "f" + fork + "-" + repetition;
        return new RunDirectory(target(target).resolve(scenario).resolve(name));
    }
}
