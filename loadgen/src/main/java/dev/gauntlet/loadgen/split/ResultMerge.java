package dev.gauntlet.loadgen.split;

import dev.gauntlet.api.BytesTransferred;
import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.Percentiles;
import dev.gauntlet.api.RequestTimings;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunDirectory.HistogramLog;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.measure.ErrorKinds;
import dev.gauntlet.loadgen.measure.ErrorLog;
import dev.gauntlet.loadgen.measure.IntervalLogs;
import dev.gauntlet.loadgen.measure.LatencyRecorder;
import dev.gauntlet.loadgen.measure.TrafficLog;
import dev.gauntlet.loadgen.verdict.Verdicts;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Merges the results of one load's shares, each in a run directory of its own, into one run,
 * losslessly: histograms are summed from the shares' interval logs (interval k of the merged log
 * is the sum of every share's interval k), errors and traffic per interval likewise from their
 * {@code errors.csv} and {@code traffic.csv} (line k is the sum of every share's line k), counts are added, and the
 * verdict is judged on the whole. The shares are {@link MultiProcess}'s children or the shards of
 * a load over pods.
 *
 * <pre>{@code
 * RunSummary merged = ResultMerge.merge(spec, List.of(dir.resolve("p1"), dir.resolve("p2")), dir);
 * }</pre>
 */
public final class ResultMerge {

    private ResultMerge() {
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
        copyTargetHiccups(childDirs, outputDir);
        ErrorLog.merge(childDirs.stream().map(childDir -> new RunDirectory(childDir).errors()).toList(),
                new RunDirectory(outputDir).errors(), mergedFrom(childDirs));
        TrafficLog.merge(childDirs.stream().map(childDir -> new RunDirectory(childDir).traffic()).toList(),
                new RunDirectory(outputDir).traffic(), mergedFrom(childDirs));
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
                .cpuPerRequest(cpuPerRequest(parts))
                .quic(parts.stream().map(RunSummary::quic).filter(Objects::nonNull).reduce(RunSummary.Quic::plus).orElse(null))
                .wakeGranularityMs(parts.stream().mapToDouble(RunSummary::wakeGranularityMs).max().orElse(0))
                .goodputPerSec(parts.stream().map(RunSummary::goodputPerSec).anyMatch(java.util.Objects::isNull) ? null
                        : parts.stream().mapToDouble(RunSummary::goodputPerSec).sum())
                .errorKinds(ErrorKinds.merge(parts.stream().map(RunSummary::errorKinds).toList()))
                .bytes(parts.stream().anyMatch(p -> p.bytes() == null) ? null
                        : BytesTransferred.sum(parts.stream().map(RunSummary::bytes).toList(), measuredSec))
                .timings(timings(parts)).build();
        return Verdicts.judge(merged);
    }

    /** The processes share one target: their sustained rates add up, when every one of them has one. */
    private static Double sustained(List<RunSummary> parts) {
        return parts.stream().allMatch(p -> p.sustainedRatePerSec() != null)
                ? parts.stream().mapToDouble(RunSummary::sustainedRatePerSec).sum() : null;
    }

    /** Each split figure by figure the highest of the processes'; null when a process did not measure them. */
    private static RequestTimings timings(List<RunSummary> parts) {
        if (parts.stream().anyMatch(p -> p.timings() == null)) {
            return null;
        }
        List<RequestTimings> all = parts.stream().map(RunSummary::timings).toList();
        return new RequestTimings(worst(all.stream().map(RequestTimings::connect).toList()),
                worst(all.stream().map(RequestTimings::tlsHandshake).toList()),
                worst(all.stream().map(RequestTimings::waiting).toList()),
                worst(all.stream().map(RequestTimings::receiving).toList()));
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
                held.stream().mapToLong(RunSummary.Concurrency::held).sum(),
                held.stream().mapToLong(RunSummary.Concurrency::connectRetries).sum(), atStart, atEnd);
    }

    /**
     * Every process read the same target's hiccup log over the same window: the first one that has it stands for the
     * run, as its {@code targetHiccups} does in the summary.
     */
    private static void copyTargetHiccups(List<Path> childDirs, Path outputDir) throws IOException {
        for (Path childDir : childDirs) {
            Path log = new RunDirectory(childDir).log(HistogramLog.TARGET_HICCUP);
            if (Files.isRegularFile(log)) {
                Files.copy(log, new RunDirectory(outputDir).log(HistogramLog.TARGET_HICCUP), StandardCopyOption.REPLACE_EXISTING);
                return;
            }
        }
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

    /**
     * The generator's CPU per request over its processes, each weighed by the requests it completed; the target's as
     * any process read it (they read the same target over the same window).
     */
    private static RunSummary.CpuPerRequest cpuPerRequest(List<RunSummary> parts) {
        double cpuUs = 0;
        long requests = 0;
        for (RunSummary part : parts) {
            if (part.cpuPerRequest() != null && part.cpuPerRequest().generatorUs() != null) {
                cpuUs += part.cpuPerRequest().generatorUs() * part.completed();
                requests += part.completed();
            }
        }
        Double targetUs = parts.stream().map(RunSummary::cpuPerRequest).filter(Objects::nonNull)
                .map(RunSummary.CpuPerRequest::targetUs).filter(Objects::nonNull).findFirst().orElse(null);
        return new RunSummary.CpuPerRequest(targetUs, requests == 0 ? null : cpuUs / requests);
    }
}
