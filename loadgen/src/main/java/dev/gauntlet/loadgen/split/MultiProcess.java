package dev.gauntlet.loadgen.split;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.failure.GeneratorException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs one load over N generator processes started together, each with its share
 * ({@link LoadShares#share}), and merges their results into one run ({@link ResultMerge}).
 *
 * <pre>
 * DIR/summary.json, DIR/{response,service,lag,hiccup}.hlog, DIR/errors.csv     merged
 * DIR/p1 ... DIR/pN      each child's spec.json, summary.json, *.hlog, errors.csv, generator.log
 * </pre>
 */
public final class MultiProcess {
    /** Time for every child JVM to start before the common start instant. */
    private static final long START_DELAY_MS = 3_000;
    private static final long EXIT_GRACE_MS = 30_000;

    private MultiProcess() {
    }

    /** @param childMain the generator process's main class, which runs a share as {@code --spec --output --start-at} */
    public static RunSummary run(LoadSpec spec, Path outputDir, PrintStream progress, Class<?> childMain) {
        int n = spec.processes();
        try {
            Path dir = outputDir != null ? outputDir : Files.createTempDirectory("gauntlet-load");
            Files.createDirectories(dir);
            long startAtEpochMs = System.currentTimeMillis() + START_DELAY_MS;
            List<GeneratorProcess> children = new ArrayList<>();
            List<Path> childDirs = new ArrayList<>();
            progress.printf(Locale.ROOT, "gauntlet load: %s -> %s over %d processes (logs in %s/p1..p%d)%n",
                    spec.model().describe(), spec.url(), n, dir, n);
            boolean allExited = false;
            try {
                for (int i = 0; i < n; i++) {
                    Path childDir = Files.createDirectories(dir.resolve("p" + (i + 1)));
                    Path specFile = new RunDirectory(childDir).spec();
                    Json.json().writeValue(specFile.toFile(), LoadShares.share(spec, i));
                    JavaCommand command = new JavaCommand(List.of(), System.getProperty("java.class.path"),
                            childMain.getName(), List.of("--spec", specFile.toString(), "--output",
                            childDir.toString(), "--start-at", Long.toString(startAtEpochMs)));
                    // The children inherit this JVM's environment, the admin token with it.
                    children.add(GeneratorProcess.start(command, new RunDirectory(childDir).generatorLog(), Map.of(),
                            ProcessBuilder::start));
                    childDirs.add(childDir);
                }
                long deadlineMs = START_DELAY_MS + spec.hardCapMs() + EXIT_GRACE_MS;
                for (int i = 0; i < n; i++) {
                    GeneratorProcess child = children.get(i);
                    if (!child.exitedWithin(deadlineMs)) {
                        throw new GeneratorException("generator process " + (i + 1) + " overran its hard cap; see "
                                + new RunDirectory(childDirs.get(i)).generatorLog());
                    }
                    if (child.process().exitValue() != 0) {
                        throw new GeneratorException("generator process " + (i + 1) + " failed: " + child.lastLine());
                    }
                }
                allExited = true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new GeneratorException("interrupted while the generator processes ran");
            } finally {
                if (!allExited) {
                    // One failed or this JVM was interrupted: the others' share is no longer a whole load.
                    children.forEach(child -> child.process().destroy());
                }
            }
            RunSummary merged = ResultMerge.merge(spec, childDirs, dir);
            if (outputDir != null) {
                new RunDirectory(dir).writeSummary(merged);
            } else {
                deleteRecursively(dir);
            }
            return merged;
        } catch (IOException e) {
            throw new GeneratorException("the generator processes could not be run: " + e.getMessage());
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
