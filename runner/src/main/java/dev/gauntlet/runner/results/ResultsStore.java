package dev.gauntlet.runner.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.ResultsDirectory;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.isolation.Isolation;
import dev.gauntlet.runner.statistics.Estimate;
import dev.gauntlet.runner.suite.RunPlan;
import dev.gauntlet.runner.suite.Suite;
import dev.gauntlet.runner.suite.SuiteScaling;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The results directory of one suite run, written as the suite goes so that nothing measured is
 * lost when a run or the runner dies:
 *
 * <pre>
 * results/&lt;suite&gt;-&lt;yyyyMMdd-HHmmss&gt;/          (-2, -3, ... for a later run of the suite within that second)
 *   suite.json                         its formatVersion and id, the suite as it runs here (scaled), what scaling
 *                                      changed, each target's and client's version ({@link CatalogueVersions}), the
 *                                      environment and the platform's noise floor; each --resume's environment in resumes
 *   .lock                              held by the run writing here, with its PID ({@link ResultsLock})
 *   runs/&lt;target&gt;/target.log           the target JVM's output (target-2.log, ... for each later start)
 *   runs/&lt;target&gt;/settings.json        the target's settings in force
 *   runs/&lt;target&gt;/isolation.json       its cgroups and limits, CPUs and network namespace, read back from the kernel
 *   runs/&lt;target&gt;/&lt;scenario&gt;/&lt;rep&gt;/   (f&lt;fork&gt;-&lt;rep&gt; in a later fork) the generator's: spec.json summary.json response.hlog service.hlog lag.hlog
 *                                      errors.csv hiccup.hlog target-hiccup.hlog generator.log generator.jfr;
 *                                      the runner's: stats.json, target.jfr (each JVM's recording of the run's
 *                                      window) and jvm.json (both JVMs' costs read from them)
 *   results.json                       one row per target × scenario × fork × repetition, rewritten after each
 *                                      run, in the suite's order of targets and scenarios, then by fork and repetition
 *   intervals.json                     per target × scenario: rate, p50, p99 and max, each its mean over forks
 *                                      and 95 % confidence interval ({@link Intervals}), rewritten with results.json
 * </pre>
 *
 * <p>{@link #reopen} takes up such a directory again for {@code --resume}: its suite, and its rows
 * of measured runs; the rows of runs that failed or were skipped are dropped, to be run again.
 * A run holds its directory ({@link ResultsLock}, {@code .lock}) from its creation or reopening to {@link #close()}.
 */
public final class ResultsStore implements AutoCloseable {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private final Path dir;
    private final Suite suite;
    /** suite.json as written: the suite, its scaling, the environment it began in, the platform, the resumes. */
    private final ObjectNode resolved;
    private final ResultsLock lock;
    private final List<ResultRow> rows = new ArrayList<>();
    /** What each row measured from now on says, when a resume runs at another commit than the suite began at. */
    private String commitRemark;

    private ResultsStore(Path dir, Suite suite, ObjectNode resolved, ResultsLock lock) {
        this.dir = dir;
        this.suite = suite;
        this.resolved = resolved;
        this.lock = lock;
    }

    /**
     * A new results directory, named for the suite and the time, held by this run until {@link #close()}.
     *
     * @param suite    the suite as it runs here, after {@link SuiteScaling}
     * @param scaling  what scaling changed and why
     * @param platform the platform calibration's figures ({@code PlatformFloor}), or why there are none
     */
    public static ResultsStore create(Path resultsRoot, Suite suite, SuiteScaling.Fitted scaling, Environment environment,
                               Object platform) {
        Path dir = newDirectory(resultsRoot, suite.name() + "-" + LocalDateTime.now().format(STAMP));
        ObjectNode resolved = Json.json().createObjectNode();
        resolved.put("formatVersion", ResultsDirectory.FORMAT_VERSION);
        // Unique beyond the directory's name, which another machine's run of the suite in the same second shares:
        // two directories with one id are one run copied twice.
        resolved.put("id", dir.getFileName() + "-" + UUID.randomUUID().toString().substring(0, 8));
        resolved.set("suite", Json.json().valueToTree(suite));
        resolved.set("versions", CatalogueVersions.of(suite));
        resolved.set("scaling", Json.json().valueToTree(Map.of("rateFactor", scaling.factor(), "changes", scaling.changes())));
        resolved.set("environment", Json.json().valueToTree(environment));
        resolved.set("platform", Json.json().valueToTree(platform));
        ResultsStore store = new ResultsStore(dir, suite, resolved, ResultsLock.take(dir));
        store.writeJson(new ResultsDirectory(dir).suite(), resolved);
        return store;
    }

    /**
     * {@code resultsRoot/name}, or {@code name-2}, {@code name-3}, ... when that is taken: two runs of one suite
     * started within the same second each get their own.
     */
    static Path newDirectory(Path resultsRoot, String name) {
        try {
            Files.createDirectories(resultsRoot);
            for (int n = 1; ; n++) {
                Path dir = resultsRoot.resolve(n == 1 ? name : name + "-" + n);
                try {
                    // Atomic: of two runs that try the same name, exactly one creates it.
                    Files.createDirectory(dir);
                    Files.createDirectory(new ResultsDirectory(dir).runs());
                    return dir;
                } catch (FileAlreadyExistsException e) {
                    // another run's: the next suffix
                }
            }
        } catch (IOException e) {
            throw new UserError("cannot create a results directory in " + resultsRoot + ": " + e.getMessage()
                    + " (choose another with --results DIR)");
        }
    }

    /**
     * A results directory written by an earlier run, taken up again with its suite and its measured rows, and held
     * by this run until {@link #close()}; a directory another live run holds is refused ({@link ResultsLock}).
     */
    public static ResultsStore reopen(Path dir) {
        Path suiteFile = new ResultsDirectory(dir).suite();
        if (!Files.isRegularFile(suiteFile)) {
            throw new UserError(dir + " is not a results directory (it has no suite.json): give the directory"
                    + " ./gauntlet run printed as 'Results:'");
        }
        ResultsLock lock = ResultsLock.take(dir);
        try {
            ObjectNode resolved = (ObjectNode) Json.json().readTree(suiteFile.toFile());
            Suite suite = Json.json().treeToValue(resolved.get("suite"), Suite.class);
            ResultsStore store = new ResultsStore(dir, suite, resolved, lock);
            Path results = new ResultsDirectory(dir).results();
            if (Files.isRegularFile(results)) {
                for (ResultRow row : Json.json().readValue(results.toFile(), ResultRow[].class)) {
                    if (row.measured()) {
                        store.rows.add(row);
                    }
                }
            }
            return store;
        } catch (IOException | IllegalArgumentException | ClassCastException e) {
            lock.close();
            throw new UserError("cannot resume from " + dir + ": its suite.json or results.json does not read ("
                    + e.getMessage().lines().findFirst().orElse("") + ")");
        }
    }

    /** The network the suite was measured over; loopback for a directory older than the record of it. */
    public Isolation.Network recordedNetwork() {
        String mode = resolved.at("/environment/isolation/network/mode").asText("loopback");
        try {
            return Isolation.Network.valueOf(mode.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UserError(dir + "/suite.json records the network '" + mode + "', which this runner does not know:"
                    + " resume it with the Gauntlet that began it");
        }
    }

    /**
     * Takes up the suite on this machine and checkout. A setup that differs from the recorded one in what a run
     * measures ({@link Environment#differenceFrom}) is refused; so is another commit, unless
     * {@code allowCommitChange}: then each row measured from now on says its commit. Either way the resume's
     * environment is added to {@code suite.json}'s {@code resumes}, so the report tells what the rows came from.
     *
     * @return the line to print when the commit differs
     */
    public Optional<String> resumeOn(Environment now, boolean allowCommitChange) {
        JsonNode recorded = resolved.path("environment");
        now.differenceFrom(recorded).ifPresent(difference -> {
            throw new UserError("cannot resume " + dir + " on another setup: " + difference + "; resume it where it"
                    + " began, or start a new suite");
        });
        String began = recorded.path("gitCommit").asText("unknown");
        Optional<String> commitChange = Optional.empty();
        if (!began.equals(now.gitCommit())) {
            if (!allowCommitChange) {
                throw new UserError(dir + " was measured at commit " + began + ", this checkout is at " + now.gitCommit()
                        + ": check that commit out to resume, or pass --allow-commit-change to mix the two (the rows say which is which)");
            }
            commitRemark = "commit " + now.gitCommit() + " (resumed)";
            commitChange = Optional.of("gauntlet: " + dir + " was measured at commit " + began
                    + "; the runs measured now are at " + now.gitCommit() + " (--allow-commit-change), and their rows say so");
        }
        ArrayNode resumes = resolved.has("resumes") ? (ArrayNode) resolved.get("resumes") : resolved.putArray("resumes");
        resumes.add(Json.json().valueToTree(now));
        writeJson(new ResultsDirectory(dir).suite(), resolved);
        return commitChange;
    }

    public Suite suite() {
        return suite;
    }

    /** The runs whose rows are here: what a resumed suite leaves out. */
    public Set<RunPlan.Key> measuredRuns() {
        return rows.stream().map(ResultRow::key).collect(Collectors.toUnmodifiableSet());
    }

    public Path dir() {
        return dir;
    }

    public Path targetDir(String target) {
        return new ResultsDirectory(dir).target(target);
    }

    /** The run's directory, emptied of what an interrupted or failed earlier attempt left there. */
    public Path freshRunDir(String target, RunPlan.Run planned) {
        Path run = new ResultsDirectory(dir).run(target, planned.scenario().name(), planned.fork(), planned.repetition()).path();
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
    public Path nextTargetLog(String target) {
        Path log = targetDir(target).resolve("target.log");
        for (int start = 2; Files.exists(log); start++) {
            log = targetDir(target).resolve("target-" + start + ".log");
        }
        return log;
    }

    /** Stores a JSON document a target served (settings, stats) as a file, pretty-printed. */
    public void writeServedJson(Path file, String json) {
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
     * {@code intervals.json} follows it: the figures' intervals over forks as they stand.
     */
    public void add(ResultRow row) {
        rows.add(commitRemark == null ? row : row.remarked(commitRemark));
        rows.sort(Comparator.comparingInt((ResultRow r) -> suite.targets().indexOf(r.target()))
                .thenComparingInt(r -> scenarioIndex(r.scenario()))
                .thenComparingInt(ResultRow::fork)
                .thenComparingInt(ResultRow::repetition));
        writeJson(new ResultsDirectory(dir).results(), rows);
        writeJson(new ResultsDirectory(dir).intervals(), Intervals.of(rows, Estimate.DEFAULT_CONFIDENCE));
    }

    private int scenarioIndex(String scenario) {
        for (int i = 0; i < suite.scenarios().size(); i++) {
            if (suite.scenarios().get(i).name().equals(scenario)) {
                return i;
            }
        }
        return -1;
    }

    public List<ResultRow> rows() {
        return List.copyOf(rows);
    }

    /** Lets the directory go for a later {@code --resume}. */
    @Override
    public void close() {
        lock.close();
    }

    /** Writes {@code value} as pretty-printed JSON via a rename, so a reader never sees half a file. */
    public void writeJson(Path file, Object value) {
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
