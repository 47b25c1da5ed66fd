package dev.gauntlet.runner;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The results directory of one suite run, written as the suite goes so that nothing measured is
 * lost when a run or the runner dies:
 *
 * <pre>
 * results/&lt;suite&gt;-&lt;yyyyMMdd-HHmmss&gt;/
 *   suite.json                         the suite as it runs here (scaled), what scaling changed, the environment
 *                                      and the platform's noise floor
 *   runs/&lt;target&gt;/target.log           the target JVM's output (target-2.log, ... for each later start)
 *   runs/&lt;target&gt;/settings.json        the target's settings in force
 *   runs/&lt;target&gt;/isolation.json       its cgroups and limits, CPUs and network namespace, read back from the kernel
 *   runs/&lt;target&gt;/&lt;scenario&gt;/&lt;rep&gt;/   spec.json summary.json response.hlog service.hlog lag.hlog errors.csv
 *                                      hiccup.hlog target-hiccup.hlog stats.json generator.log
 *                                      target.jfr generator.jfr (each JVM's recording of the run's window)
 *   results.json                       one row per target × scenario × repetition, rewritten after each run,
 *                                      in the suite's order of targets, scenarios and repetitions
 * </pre>
 *
 * <p>{@link #reopen} takes up such a directory again for {@code --resume}: its suite, and its rows
 * of measured runs; the rows of runs that failed or were skipped are dropped, to be run again.
 */
final class ResultsStore {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private final Path dir;
    private final Suite suite;
    private final List<ResultRow> rows = new ArrayList<>();

    private ResultsStore(Path dir, Suite suite) {
        this.dir = dir;
        this.suite = suite;
    }

    /**
     * @param suite    the suite as it runs here, after {@link SuiteScaling}
     * @param scaling  what scaling changed and why
     * @param platform the platform calibration's figures ({@code PlatformFloor}), or why there are none
     */
    static ResultsStore create(Path resultsRoot, Suite suite, SuiteScaling.Fitted scaling, Environment environment,
                               Object platform) {
        Path dir = resultsRoot.resolve(suite.name() + "-" + LocalDateTime.now().format(STAMP));
        try {
            Files.createDirectories(dir.resolve("runs"));
        } catch (IOException e) {
            throw new UserError("cannot create the results directory " + dir + ": " + e.getMessage()
                    + " (choose another with --results DIR)");
        }
        ResultsStore store = new ResultsStore(dir, suite);
        Map<String, Object> resolved = new LinkedHashMap<>();
        resolved.put("suite", suite);
        resolved.put("scaling", Map.of("rateFactor", scaling.factor(), "changes", scaling.changes()));
        resolved.put("environment", environment);
        resolved.put("platform", platform);
        store.writeJson(dir.resolve("suite.json"), resolved);
        return store;
    }

    /** A results directory written by an earlier run, taken up again with its suite and its measured rows. */
    static ResultsStore reopen(Path dir) {
        Path suiteFile = dir.resolve("suite.json");
        if (!Files.isRegularFile(suiteFile)) {
            throw new UserError(dir + " is not a results directory (it has no suite.json): give the directory"
                    + " ./gauntlet run printed as 'Results:'");
        }
        try {
            Suite suite = Json.json().treeToValue(Json.json().readTree(suiteFile.toFile()).get("suite"), Suite.class);
            ResultsStore store = new ResultsStore(dir, suite);
            Path results = dir.resolve("results.json");
            if (Files.isRegularFile(results)) {
                for (ResultRow row : Json.json().readValue(results.toFile(), ResultRow[].class)) {
                    if (row.measured()) {
                        store.rows.add(row);
                    }
                }
            }
            return store;
        } catch (IOException | IllegalArgumentException e) {
            throw new UserError("cannot resume from " + dir + ": its suite.json or results.json does not read ("
                    + e.getMessage().lines().findFirst().orElse("") + ")");
        }
    }

    Suite suite() {
        return suite;
    }

    /** The runs whose rows are here: what a resumed suite leaves out. */
    Set<RunPlan.Key> measuredRuns() {
        return rows.stream().map(ResultRow::key).collect(Collectors.toUnmodifiableSet());
    }

    Path dir() {
        return dir;
    }

    Path targetDir(String target) {
        return dir.resolve("runs").resolve(target);
    }

    Path runDir(String target, String scenario, int repetition) {
        return targetDir(target).resolve(scenario).resolve(Integer.toString(repetition));
    }

    /** The run's directory, emptied of what an interrupted or failed earlier attempt left there. */
    Path freshRunDir(String target, String scenario, int repetition) {
        Path run = runDir(target, scenario, repetition);
        if (Files.isDirectory(run)) {
            try (Stream<Path> files = Files.walk(run)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot clear " + run + " for its new run", e);
            }
        }
        return run;
    }

    /** {@code target.log} for a target's first JVM, {@code target-2.log} for its second start, and so on. */
    Path nextTargetLog(String target) {
        Path log = targetDir(target).resolve("target.log");
        for (int start = 2; Files.exists(log); start++) {
            log = targetDir(target).resolve("target-" + start + ".log");
        }
        return log;
    }

    /** Stores a JSON document a target served (settings, stats) as a file, pretty-printed. */
    void writeServedJson(Path file, String json) {
        try {
            JsonNode node = Json.json().readTree(json);
            writeJson(file, node);
        } catch (IOException e) {
            writeJson(file, Map.of("unparsed", json));
        }
    }

    /**
     * Adds a row and rewrites {@code results.json} whole, via a rename so readers never see half a
     * file; its rows in the suite's order, so a resumed suite's file reads as an uninterrupted one's.
     */
    void add(ResultRow row) {
        rows.add(row);
        rows.sort(Comparator.comparingInt((ResultRow r) -> suite.targets().indexOf(r.target()))
                .thenComparingInt(r -> scenarioIndex(r.scenario()))
                .thenComparingInt(ResultRow::repetition));
        writeJson(dir.resolve("results.json"), rows);
    }

    private int scenarioIndex(String scenario) {
        for (int i = 0; i < suite.scenarios().size(); i++) {
            if (suite.scenarios().get(i).name().equals(scenario)) {
                return i;
            }
        }
        return -1;
    }

    List<ResultRow> rows() {
        return List.copyOf(rows);
    }

    /** Writes {@code value} as pretty-printed JSON via a rename, so a reader never sees half a file. */
    void writeJson(Path file, Object value) {
        try {
            Files.createDirectories(file.getParent());
            Path partial = file.resolveSibling(file.getFileName() + ".partial");
            Json.json().writeValue(partial.toFile(), value);
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
