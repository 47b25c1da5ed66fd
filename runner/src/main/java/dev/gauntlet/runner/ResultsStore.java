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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The results directory of one suite run, written as the suite goes so that nothing measured is
 * lost when a run or the runner dies:
 *
 * <pre>
 * results/&lt;suite&gt;-&lt;yyyyMMdd-HHmmss&gt;/
 *   suite.json                         the resolved suite, the environment and the platform's noise floor
 *   runs/&lt;target&gt;/target.log           the target JVM's output
 *   runs/&lt;target&gt;/settings.json        the target's settings in force
 *   runs/&lt;target&gt;/isolation.json       its cgroups and limits, CPUs and network namespace, read back from the kernel
 *   runs/&lt;target&gt;/&lt;scenario&gt;/&lt;rep&gt;/   spec.json summary.json response.hlog service.hlog lag.hlog stats.json generator.log
 *                                      target.jfr generator.jfr (each JVM's recording of the run's window)
 *   results.json                       one row per target × scenario × repetition, rewritten after each run
 * </pre>
 */
final class ResultsStore {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private final Path dir;
    private final List<ResultRow> rows = new ArrayList<>();

    private ResultsStore(Path dir) {
        this.dir = dir;
    }

    /** @param platform the platform calibration's figures ({@code PlatformFloor}), or why there are none */
    static ResultsStore create(Path resultsRoot, Suite suite, Environment environment, Object platform) {
        Path dir = resultsRoot.resolve(suite.name() + "-" + LocalDateTime.now().format(STAMP));
        try {
            Files.createDirectories(dir.resolve("runs"));
        } catch (IOException e) {
            throw new UserError("cannot create the results directory " + dir + ": " + e.getMessage()
                    + " (choose another with --results DIR)");
        }
        ResultsStore store = new ResultsStore(dir);
        Map<String, Object> resolved = new LinkedHashMap<>();
        resolved.put("suite", suite);
        resolved.put("environment", environment);
        resolved.put("platform", platform);
        store.writeJson(dir.resolve("suite.json"), resolved);
        return store;
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

    /** Stores a JSON document a target served (settings, stats) as a file, pretty-printed. */
    void writeServedJson(Path file, String json) {
        try {
            JsonNode node = Json.json().readTree(json);
            writeJson(file, node);
        } catch (IOException e) {
            writeJson(file, Map.of("unparsed", json));
        }
    }

    /** Adds a row and rewrites {@code results.json} whole, via a rename so readers never see half a file. */
    void add(ResultRow row) {
        rows.add(row);
        writeJson(dir.resolve("results.json"), rows);
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
