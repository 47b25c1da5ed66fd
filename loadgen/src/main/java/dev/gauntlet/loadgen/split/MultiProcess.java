package dev.gauntlet.loadgen.split;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.Percentiles;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunDirectory.HistogramLog;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.hiccup.ParentWatch;
import dev.gauntlet.loadgen.Generator;
import dev.gauntlet.loadgen.GeneratorException;
import dev.gauntlet.loadgen.GeneratorMain;
import dev.gauntlet.loadgen.measure.ErrorLog;
import dev.gauntlet.loadgen.measure.IntervalLogs;
import dev.gauntlet.loadgen.measure.LatencyRecorder;
import dev.gauntlet.loadgen.verdict.Verdicts;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Splits one load over N {@link GeneratorMain} processes started together, then merges their
 * results losslessly: histograms are summed from the children's interval logs (interval k of
 * the merged log is the sum of every child's interval k), errors per interval likewise from their
 * {@code errors.csv} (line k is the sum of every child's line k), counts are added.
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

    /** Child {@code index}'s share of the load, run with the spec's threads. */
    public static LoadSpec share(LoadSpec spec, int index) {
        return cut(spec, index, spec.processes()).toBuilder().threads(spec.threads()).steady(null)
                .hardCapMs(spec.hardCapMs()).build();
    }

    /** Shard {@code index} of {@code n}: its share, run with the whole load's processes and threads. */
    public static LoadSpec shard(LoadSpec spec, int index, int n) {
        return cut(spec, index, n).toBuilder().processes(spec.processes()).threads(spec.threads()).steady(null)
                .hardCapMs(spec.hardCapMs()).build();
    }

    /**
     * Share {@code index} of {@code n}, for one thread of one process: shares differ by one
     * connection or request at most; each has a seed of its own, distinct however shares are cut
     * again (shards into processes into threads); a constant-rate share {@code index} begins
     * {@code index / rate} after the whole load's start, so the shares' starts interleave evenly
     * instead of arriving as a burst of {@code n}.
     */
    public static LoadSpec cut(LoadSpec spec, int index, int n) {
        try {
            return spec.toBuilder().model(spec.model().share(index, n))
                    .maxConnections(spec.maxConnections() == 0 ? 0
                            : LoadModel.evenShare(spec.maxConnections(), index, n, "max connections"))
                    .maxRequests(spec.maxRequests() == 0 ? 0
                            : Math.max(1, LoadModel.evenShare(spec.maxRequests(), index, n, "requests")))
                    .seed(seedOf(spec.seed(), index))
                    .startOffsetNs(spec.startOffsetNs() + spec.model().shareStartOffsetNs(index))
                    .hardCapMs(spec.hardCapMs())
                    .processes(1)
                    .threads(1)
                    .build();
        } catch (IllegalArgumentException e) {
            throw new GeneratorException(e.getMessage());
        }
    }

    /** SplitMix64's mix of the seed and the share's index: a share of a share never repeats another share's seed. */
    private static long seedOf(long seed, int index) {
        long z = seed + (index + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    public static RunSummary run(LoadSpec spec, Path outputDir, PrintStream progress) {
        int n = spec.processes();
        try {
            Path dir = outputDir != null ? outputDir : Files.createTempDirectory("gauntlet-load");
            Files.createDirectories(dir);
            long startAtEpochMs = System.currentTimeMillis() + START_DELAY_MS;
            List<Process> children = new ArrayList<>();
            List<Path> childDirs = new ArrayList<>();
            progress.printf(Locale.ROOT, "gauntlet load: %s -> %s over %d processes (logs in %s/p1..p%d)%n",
                    spec.model().describe(), spec.url(), n, dir, n);
            try {
                for (int i = 0; i < n; i++) {
                    Path childDir = Files.createDirectories(dir.resolve("p" + (i + 1)));
                    Path specFile = new RunDirectory(childDir).spec();
                    Json.json().writeValue(specFile.toFile(), share(spec, i));
                    List<String> command = List.of(javaCommand(), ParentWatch.jvmOption(), "-cp", System.getProperty("java.class.path"),
                            GeneratorMain.class.getName(), "--spec", specFile.toString(), "--output", childDir.toString(),
                            "--start-at", Long.toString(startAtEpochMs));
                    children.add(new ProcessBuilder(command).redirectErrorStream(true)
                            .redirectOutput(new RunDirectory(childDir).generatorLog().toFile()).start());
                    childDirs.add(childDir);
                }
                long deadlineMs = START_DELAY_MS + spec.hardCapMs() + EXIT_GRACE_MS;
                for (int i = 0; i < n; i++) {
                    Process child = children.get(i);
                    if (!child.waitFor(deadlineMs, TimeUnit.MILLISECONDS)) {
                        throw new GeneratorException("generator process " + (i + 1) + " overran its hard cap; see "
                                + new RunDirectory(childDirs.get(i)).generatorLog());
                    }
                    if (child.exitValue() != 0) {
                        throw new GeneratorException("generator process " + (i + 1) + " failed: "
                                + lastLine(new RunDirectory(childDirs.get(i)).generatorLog()));
                    }
                }
            } catch (InterruptedException e) {
                children.forEach(Process::destroy);
                Thread.currentThread().interrupt();
                throw new GeneratorException("interrupted while the generator processes ran");
            }
            RunSummary merged = merge(spec, childDirs, dir);
            if (outputDir != null) {
                Generator.write(merged, new RunDirectory(dir).summary());
            } else {
                deleteRecursively(dir);
            }
            return merged;
        } catch (IOException e) {
            throw new GeneratorException("the generator processes could not be run: " + e.getMessage());
        }
    }

    /**
     * Merges the children's summaries, interval logs and errors per interval from their directories
     * into {@code outputDir}; a child without an {@code errors.csv} adds nothing to the merged one.
     */
    public static RunSummary merge(LoadSpec spec, List<Path> childDirs, Path outputDir) throws IOException {
        List<RunSummary> parts = new ArrayList<>();
        for (Path childDir : childDirs) {
            parts.add(Json.json().readValue(new RunDirectory(childDir).summary().toFile(), RunSummary.class));
        }
        Histogram response = mergeLogs(childDirs, HistogramLog.RESPONSE, outputDir);
        Histogram service = mergeLogs(childDirs, HistogramLog.SERVICE, outputDir);
        Histogram lag = mergeLogs(childDirs, HistogramLog.LAG, outputDir);

        Map<ErrorClass, Long> errors = new EnumMap<>(ErrorClass.class);
        for (ErrorClass errorClass : ErrorClass.values()) {
            errors.put(errorClass, parts.stream().mapToLong(p -> p.errors().getOrDefault(errorClass, 0L)).sum());
        }
        Histogram hiccups = mergeLogs(childDirs, HistogramLog.HICCUP, outputDir);
        ErrorLog.merge(childDirs.stream().map(childDir -> new RunDirectory(childDir).errors()).toList(),
                new RunDirectory(outputDir).errors(), mergedFrom(childDirs));
        double measuredSec = parts.stream().mapToDouble(RunSummary::measuredSec).max().orElse(0);
        long completed = parts.stream().mapToLong(RunSummary::completed).sum();
        RunSummary.GeneratorCost cost = new RunSummary.GeneratorCost(
                parts.stream().mapToLong(p -> p.generatorCost().cpuMs()).sum(),
                parts.stream().mapToLong(p -> p.generatorCost().heapUsedMaxBytes()).sum(),
                parts.stream().mapToInt(p -> p.generatorCost().threadsPeak()).sum(),
                parts.stream().mapToDouble(p -> p.generatorCost().engineCpuPercent()).max().orElse(0),
                parts.stream().mapToDouble(p -> p.generatorCost().engineWaitingPercent()).max().orElse(0),
                parts.stream().mapToDouble(p -> p.generatorCost().processCpuPercent()).max().orElse(0));
        RunSummary merged = RunSummary.builder().spec(spec)
                .startedAt(parts.stream().map(RunSummary::startedAt).min(Comparator.naturalOrder()).orElseThrow())
                .measuredSec(measuredSec).scheduled(parts.stream().mapToLong(RunSummary::scheduled).sum())
                .sent(parts.stream().mapToLong(RunSummary::sent).sum()).completed(completed).errors(errors)
                // What each completed within its own measured phase, over the longest of them.
                .achievedRatePerSec(measuredSec > 0
                        ? parts.stream().mapToDouble(p -> p.achievedRatePerSec() * p.measuredSec()).sum() / measuredSec : 0)
                .sustainedRatePerSec(sustained(parts))
                .responseTime(LatencyRecorder.percentiles(response)).serviceTime(LatencyRecorder.percentiles(service))
                .scheduleLag(LatencyRecorder.percentiles(lag))
                .connectionsOpened(parts.stream().mapToLong(RunSummary::connectionsOpened).sum()).generatorCost(cost)
                // Each process's loop kept its own time: the latest of them speaks for the generator.
                .loopLateness(worst(parts.stream().map(RunSummary::loopLateness).toList()))
                .generatorHiccups(LatencyRecorder.percentiles(hiccups))
                // Every process read the same target's log over the same window.
                .targetHiccups(parts.stream().map(RunSummary::targetHiccups).filter(p -> p.count() > 0).findFirst()
                        .orElse(Percentiles.EMPTY))
                .targetCpuPercent(parts.stream().map(RunSummary::targetCpuPercent).filter(Objects::nonNull).max(Double::compare)
                        .orElse(null))
                .connectionsPeak(parts.stream().mapToInt(RunSummary::connectionsPeak).sum())
                .connectionsLimit(parts.stream().mapToInt(RunSummary::connectionsLimit).sum())
                .hardCapReached(parts.stream().anyMatch(RunSummary::hardCapReached)).concurrency(mergeConcurrency(parts))
                .processes(parts.size())
                .unansweredAtEnd(parts.stream().mapToLong(RunSummary::unansweredAtEnd).sum())
                .connectTime(worst(parts.stream().map(RunSummary::connectTime).toList()))
                .connectionsOpenedMeasured(parts.stream().mapToLong(RunSummary::connectionsOpenedMeasured).sum())
                .droppedQueueFull(parts.stream().mapToLong(RunSummary::droppedQueueFull).sum())
                .wakeGranularityMs(parts.stream().mapToDouble(RunSummary::wakeGranularityMs).max().orElse(0)).build();
        return Verdicts.judge(merged);
    }

    /** The processes share one target: their sustained rates add up, when every one of them has one. */
    private static Double sustained(List<RunSummary> parts) {
        return parts.stream().allMatch(p -> p.sustainedRatePerSec() != null)
                ? parts.stream().mapToDouble(RunSummary::sustainedRatePerSec).sum() : null;
    }

    /** Figure by figure, the highest of the processes': percentiles of different processes do not add. */
    private static Percentiles worst(List<Percentiles> all) {
        return all.stream().reduce(Percentiles.EMPTY, (a, b) -> new Percentiles(a.count() + b.count(),
                Math.max(a.meanMs(), b.meanMs()), Math.max(a.p50Ms(), b.p50Ms()), Math.max(a.p90Ms(), b.p90Ms()),
                Math.max(a.p99Ms(), b.p99Ms()), Math.max(a.p999Ms(), b.p999Ms()), Math.max(a.p9999Ms(), b.p9999Ms()),
                Math.max(a.maxMs(), b.maxMs())));
    }

    private static RunSummary.Concurrency mergeConcurrency(List<RunSummary> parts) {
        List<RunSummary.Concurrency> held = parts.stream().map(RunSummary::concurrency).filter(Objects::nonNull).toList();
        if (held.isEmpty()) {
            return null;
        }
        // The server is shared: its count before the first burst and after the last hold frame all of them.
        RunSummary.ServerStats atStart = held.stream().map(RunSummary.Concurrency::serverAtStart).filter(Objects::nonNull)
                .min(Comparator.comparingLong(RunSummary.ServerStats::started)).orElse(null);
        RunSummary.ServerStats atEnd = held.stream().map(RunSummary.Concurrency::serverAtEnd).filter(Objects::nonNull)
                .max(Comparator.comparingLong(RunSummary.ServerStats::started)).orElse(null);
        return new RunSummary.Concurrency(held.stream().mapToLong(RunSummary.Concurrency::connected).sum(),
                held.stream().mapToLong(RunSummary.Concurrency::held).sum(), atStart, atEnd);
    }

    /** Sums interval k of every child's log into interval k of the merged log; returns the total. */
    private static Histogram mergeLogs(List<Path> childDirs, HistogramLog name, Path outputDir) throws IOException {
        List<List<Histogram>> perChild = new ArrayList<>();
        double startSec = Double.MAX_VALUE;
        for (Path childDir : childDirs) {
            List<Histogram> intervals = new ArrayList<>();
            try (HistogramLogReader reader = new HistogramLogReader(new RunDirectory(childDir).log(name).toFile())) {
                for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram()) {
                    intervals.add((Histogram) h);
                }
                startSec = Math.min(startSec, reader.getStartTimeSec());
            }
            perChild.add(intervals);
        }
        Histogram total = LatencyRecorder.newHistogram();
        int intervals = perChild.stream().mapToInt(List::size).max().orElse(0);
        long startEpochMs = startSec == Double.MAX_VALUE ? System.currentTimeMillis() : (long) (startSec * 1000);
        try (IntervalLogs.Single log = new IntervalLogs.Single(new RunDirectory(outputDir).log(name), startEpochMs, mergedFrom(childDirs))) {
            for (int k = 0; k < intervals; k++) {
                Histogram merged = LatencyRecorder.newHistogram();
                long from = Long.MAX_VALUE;
                long to = 0;
                for (List<Histogram> child : perChild) {
                    if (k < child.size()) {
                        Histogram h = child.get(k);
                        merged.add(h);
                        from = Math.min(from, h.getStartTimeStamp());
                        to = Math.max(to, h.getEndTimeStamp());
                    }
                }
                merged.setStartTimeStamp(from);
                merged.setEndTimeStamp(to);
                log.write(merged);
                total.add(merged);
            }
        }
        return total;
    }

    /** The merged logs' description, as each child's logs carry the load's. */
    private static String mergedFrom(List<Path> childDirs) {
        return "merged from " + childDirs.size() + " generator processes";
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    private static String javaCommand() {
        return ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    private static String lastLine(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return lines.isEmpty() ? "no output; see " + log : lines.getLast() + " (see " + log + ")";
        } catch (IOException e) {
            return "see " + log;
        }
    }
}
