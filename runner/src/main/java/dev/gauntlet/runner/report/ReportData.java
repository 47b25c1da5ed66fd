package dev.gauntlet.runner.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.ResultsDirectory;
import dev.gauntlet.api.RunDirectory.HistogramLog;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.loadgen.measure.ErrorLog;
import dev.gauntlet.loadgen.measure.TrafficLog;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.metrics.IntervalLog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.DoubleUnaryOperator;
import java.util.stream.Stream;

/**
 * What the report page draws, read from one results directory into the JSON the page embeds:
 *
 * <pre>
 * ObjectNode data = ReportData.read(Path.of("results/quick-20261123-172424"));
 * // { dir, suite, environment, platform, cpusGiven: {target, generator}, jvmOptions, rows: [results.json],
 * //   runs: [{target, scenario, fork, repetition, curves, timeline, gc, samples, jvm: {target: {gcPauses, cpu, ...}}, ...}],
 * //   intervals: [intervals.json], decisions: [{case, metric, places: [{rank, entry, figure, standing, verdicts}], separation}],
 * //   spreads: [{target, scenario, metric, values, min, max, cvPercent}] }
 * </pre>
 *
 * Reads tolerantly: {@code results.json}, {@code summary.json} and {@code jvm.json} as JSON trees, so fields
 * added later pass through to the page and missing ones leave a section saying so; a run written before
 * {@code jvm.json} has its JVM costs in {@code summary.json}'s {@code jvm}, read from there. A directory of an
 * interrupted suite reads as far as it got. A file that does not read at all (truncated, say) is left out and named in {@code unreadable}
 * ({@link #readWhatItCan}), for the page to say so. Percentile curves and per-second figures are computed here from the
 * interval logs, the intervals over forks and the headline's decisions by {@link OverForks}, the repetitions' spreads by
 * {@link RepetitionSpreads}, each side's CPU as a share of the CPUs it was given ({@link CpusGiven}), each target's JVM
 * options by {@link JvmOptionsByTarget}; the page only draws, sums and shows.
 */
public final class ReportData {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final List<String> SIDES = List.of("target", "generator");
    private static final List<HistogramLog> CURVES = List.of(HistogramLog.RESPONSE, HistogramLog.SERVICE, HistogramLog.LAG);
    /**
     * An interval shorter than this has no rate drawn: a phase's first and last intervals are slivers (15 ms, say), whose
     * handful of completions would read as a crash or a spike of throughput.
     */
    private static final double SHORTEST_RATE_SEC = 0.5;

    private final Path resultsDir;
    /** Each file that did not read, as {@code {file, problem}}, its path relative to the results directory. */
    private final ArrayNode unreadable = NODES.arrayNode();

    private ReportData(Path resultsDir) {
        this.resultsDir = resultsDir;
    }

    /** Every file, or a {@link UserError} naming the first that does not read: what a comparison needs whole. */
    public static ObjectNode read(Path resultsDir) {
        ObjectNode data = readWhatItCan(resultsDir);
        JsonNode first = data.path("unreadable").path(0);
        if (!first.isMissingNode()) {
            throw new UserError("cannot read " + resultsDir.resolve(first.path("file").asText()) + ": "
                    + first.path("problem").asText() + " (is the suite still writing it? try again when it ends)");
        }
        return data;
    }

    /**
     * What reads, with {@code unreadable: [{file, problem}]} for each file that does not: the rest of the directory
     * is as much worth seeing as it was before one file broke.
     */
    static ObjectNode readWhatItCan(Path resultsDir) {
        if (!Files.isDirectory(resultsDir)) {
            throw new UserError("no results directory " + resultsDir + " (pass one that ./gauntlet run wrote, such as results/quick-...)");
        }
        Path suiteFile = new ResultsDirectory(resultsDir).suite();
        if (!Files.isRegularFile(suiteFile)) {
            throw new UserError(resultsDir + " is not a results directory: it has no suite.json (pass one that ./gauntlet run wrote)");
        }
        return new ReportData(resultsDir).data(suiteFile);
    }

    private ObjectNode data(Path suiteFile) {
        JsonNode suiteJson = readJson(suiteFile);
        ObjectNode data = NODES.objectNode();
        data.put("dir", resultsDir.toAbsolutePath().normalize().toString());
        data.set("suite", suiteJson.path("suite"));
        data.set("environment", suiteJson.path("environment"));
        data.set("resumes", suiteJson.path("resumes"));
        data.set("platform", suiteJson.path("platform"));
        data.set("jvmOptions", JvmOptionsByTarget.of(suiteJson.path("suite")));
        CpusGiven cpusGiven = CpusGiven.of(suiteJson.path("environment"));
        ObjectNode given = data.putObject("cpusGiven");
        SIDES.forEach(side -> given.put(side, cpusGiven.describe(side)));
        Path resultsFile = new ResultsDirectory(resultsDir).results();
        JsonNode rows = Files.isRegularFile(resultsFile) ? readJson(resultsFile) : NODES.arrayNode();
        data.set("rows", rows.isArray() ? rows : NODES.arrayNode());
        ArrayNode runs = data.putArray("runs");
        for (JsonNode row : data.get("rows")) {
            Path runDir = new ResultsDirectory(resultsDir).run(row.path("target").asText(), row.path("scenario").asText(),
                    row.path("fork").asInt(1), row.path("repetition").asInt()).path();
            runs.add(run(row, runDir, cpusGiven));
        }
        data.set("intervals", intervals(data.get("rows")));
        data.set("decisions", OverForks.decisions(data.path("suite"), data.path("platform"), data.get("rows"), runs));
        data.set("spreads", RepetitionSpreads.of(data.path("suite"), data.get("rows"), runs));
        data.set("unreadable", unreadable);
        return data;
    }

    private ObjectNode run(JsonNode row, Path runDir, CpusGiven cpusGiven) {
        ObjectNode run = NODES.objectNode();
        run.put("target", row.path("target").asText());
        run.put("scenario", row.path("scenario").asText());
        run.put("fork", row.path("fork").asInt(1));
        run.put("repetition", row.path("repetition").asInt());
        if (row.hasNonNull("client")) {
            run.put("client", row.path("client").asText());
        }
        run.put("dir", resultsDir.relativize(runDir).toString());
        run.set("files", files(runDir));
        Path summaryFile = new RunDirectory(runDir).summary();
        JsonNode summary = Files.isRegularFile(summaryFile) ? readJson(summaryFile) : NODES.missingNode();
        JsonNode spec = summary.path("spec");
        run.set("model", spec.path("model"));
        // The warm-up as it went: a warm-up until steady lasts as long as the target took to settle.
        JsonNode steadiness = summary.path("steadiness");
        run.put("warmupSec", (steadiness.isObject() ? steadiness.path("warmupMs") : spec.path("warmupMs")).asDouble() / 1000);
        if (steadiness.isObject()) {
            ObjectNode steady = run.putObject("steadiness");
            steady.set("rule", steadiness.path("ruleText"));
            steady.set("settled", steadiness.path("settled"));
            steady.put("windows", steadiness.path("warmup").size());
            steady.set("warmup", warmupWindows(steadiness.path("warmup")));
        }
        run.put("measuredSec", summary.path("measuredSec").asDouble());
        // The last three are absent from summaries written before they were recorded, and bytes and timings where the
        // engine does not see them.
        for (String field : List.of("errors", "evidence", "sustainedRatePerSec", "unansweredAtEnd", "errorKinds", "bytes",
                "timings")) {
            run.set(field, summary.path(field));
        }

        ObjectNode curves = run.putObject("curves");
        ObjectNode timeline = run.putObject("timeline");
        double startEpochMs = Double.NaN;
        for (HistogramLog kind : CURVES) {
            String name = kind.id();
            IntervalLog log = readLog(new RunDirectory(runDir).log(kind));
            if (log == null) {
                continue;
            }
            PercentileCurve curve = PercentileCurve.of(log.total(), IntervalLog.UNITS_PER_MS);
            ObjectNode c = curves.putObject(name);
            c.set("x", numbers(curve.x()));
            c.set("ms", numbers(curve.ms()));
            timeline.set(name, perSecond(log, kind == HistogramLog.RESPONSE));
            if (kind == HistogramLog.RESPONSE) {
                startEpochMs = log.startEpochMs();
            }
        }
        RunDirectory directory = new RunDirectory(runDir);
        readIntervals(directory.errors(), ErrorLog::read).ifPresent(errors -> timeline.set("errors", errorsPerSecond(errors)));
        readIntervals(directory.traffic(), TrafficLog::read).ifPresent(traffic -> timeline.set("traffic",
                traffic(traffic, run.path("warmupSec").asDouble())));
        ObjectNode gc = run.putObject("gc");
        ObjectNode samples = run.putObject("samples");
        JsonNode jvmCosts = jvmCosts(runDir, summary);
        ObjectNode jvm = run.putObject("jvm");
        for (String side : SIDES) {
            JsonNode metrics = jvmCosts.path(side);
            if (metrics.isObject()) {
                ObjectNode figures = metrics.deepCopy();
                if (figures.path("gcPauses").isObject()) {
                    ((ObjectNode) figures.get("gcPauses")).remove("timeline");
                }
                figures.remove("samples");
                figures.set("cpu", cpu(side, metrics.path("cpu"), summary, cpusGiven));
                jvm.set(side, figures);
                if (!Double.isNaN(startEpochMs)) {
                    gc.set(side, pauses(metrics.path("gcPauses").path("timeline"), startEpochMs));
                    ObjectNode sideSamples = samples(metrics.path("samples"), startEpochMs);
                    sideSamples.set("cpuPercentOfGiven", points(cpuOfMachine(metrics.path("samples"), "cpuPercent"),
                            startEpochMs, percent -> cpusGiven.shareOf(side, percent)));
                    samples.set(side, sideSamples);
                }
            }
        }
        jvm.set("notes", jvmCosts.path("notes"));
        return run;
    }

    /**
     * Each target × scenario's figures with their intervals over forks: {@code intervals.json}, or in a directory written
     * before there was one, computed from the rows as the runner computes it.
     */
    private JsonNode intervals(JsonNode rows) {
        Path intervalsFile = new ResultsDirectory(resultsDir).intervals();
        JsonNode intervals = Files.isRegularFile(intervalsFile) ? readJson(intervalsFile) : NODES.missingNode();
        return intervals.isArray() ? intervals : OverForks.intervals(rows);
    }

    /**
     * The warm-up's judged windows as {@code [start, completed per second, p50 ms, p99 ms]}, each start in seconds after the
     * measured phase began: the judge ends the warm-up at the end of its last window, so the windows are the seconds
     * just before the measured phase, the last ending where it begins.
     */
    private static ArrayNode warmupWindows(JsonNode windows) {
        ArrayNode out = NODES.arrayNode();
        int n = windows.size();
        for (int k = 0; k < n; k++) {
            JsonNode w = windows.get(k);
            ArrayNode window = out.addArray().add(k - n).add(PercentileCurve.round(w.path("completedPerSec").asDouble()));
            for (String field : List.of("p50Ms", "p99Ms")) {
                JsonNode ms = w.path(field);
                if (ms.isNumber() && !Double.isNaN(ms.doubleValue())) {
                    window.add(PercentileCurve.round(ms.doubleValue()));
                } else {
                    window.addNull();
                }
            }
        }
        return out;
    }

    /** The run's {@code jvm.json}; in a directory written before there was one, {@code summary.json}'s {@code jvm}. */
    private JsonNode jvmCosts(Path runDir, JsonNode summary) {
        Path jvmFile = new RunDirectory(runDir).jvm();
        return Files.isRegularFile(jvmFile) ? readJson(jvmFile) : summary.path("jvm");
    }

    /**
     * Per interval: its start (seconds after the measured phase began), completions per second (null for an interval
     * shorter than {@link #SHORTEST_RATE_SEC}), p50, p99, max; with
     * {@code buckets}, the sparse bucket counts the page sums over a selected window.
     */
    private static ObjectNode perSecond(IntervalLog log, boolean buckets) {
        ObjectNode t = NODES.objectNode();
        ArrayNode at = t.putArray("t");
        ArrayNode count = t.putArray("count");
        ArrayNode p50 = t.putArray("p50");
        ArrayNode p99 = t.putArray("p99");
        ArrayNode max = t.putArray("max");
        ArrayNode counts = buckets ? t.putArray("buckets") : null;
        for (IntervalLog.Interval i : log.intervals()) {
            var h = i.histogram();
            at.add(PercentileCurve.round(i.offsetSec()));
            if (i.lengthSec() < SHORTEST_RATE_SEC) {
                count.addNull();
            } else {
                count.add(h.getTotalCount() / i.lengthSec());
            }
            boolean empty = h.getTotalCount() == 0;
            addOrNull(p50, empty ? null : h.getValueAtPercentile(50), IntervalLog.UNITS_PER_MS);
            addOrNull(p99, empty ? null : h.getValueAtPercentile(99), IntervalLog.UNITS_PER_MS);
            addOrNull(max, empty ? null : h.getMaxValue(), IntervalLog.UNITS_PER_MS);
            if (counts != null) {
                ArrayNode pairs = counts.addArray();
                LatencyBuckets.of(h, IntervalLog.UNITS_PER_MS).forEach(pairs::add);
            }
        }
        return t;
    }

    /**
     * The generator's errors.csv as {@code {t: [...], perSec: {CLASS: [...]}}}: each interval's start and its
     * errors per second, only the classes that occurred.
     */
    private static ObjectNode errorsPerSecond(List<ErrorLog.Interval> intervals) {
        ObjectNode out = NODES.objectNode();
        ArrayNode at = out.putArray("t");
        intervals.forEach(i -> at.add(i.startSec()));
        ObjectNode perSec = out.putObject("perSec");
        for (ErrorClass errorClass : ErrorClass.values()) {
            if (intervals.stream().allMatch(i -> i.errors().get(errorClass) == 0)) {
                continue;
            }
            ArrayNode rates = perSec.putArray(errorClass.name());
            intervals.forEach(i -> rates.add(PercentileCurve.round(i.errors().get(errorClass) / Math.max(i.lengthSec(), 0.001))));
        }
        return out;
    }

    /**
     * The generator's traffic.csv as {@code {t, inFlight, connections, sentPerSec, receivedPerSec}}: each interval's
     * start in seconds after the measured phase began (negative in the warm-up), its figures null where the engine did
     * not see them.
     */
    private static ObjectNode traffic(List<TrafficLog.Interval> intervals, double warmupSec) {
        ObjectNode out = NODES.objectNode();
        ArrayNode at = out.putArray("t");
        ArrayNode inFlight = out.putArray("inFlight");
        ArrayNode connections = out.putArray("connections");
        ArrayNode sent = out.putArray("sentPerSec");
        ArrayNode received = out.putArray("receivedPerSec");
        for (TrafficLog.Interval i : intervals) {
            double lengthSec = Math.max(i.lengthSec(), 0.001);
            at.add(PercentileCurve.round(i.runSec() - warmupSec));
            inFlight.add(i.inFlight());
            addOrNull(connections, i.connectionsOpen(), 1);
            addOrNull(sent, i.bytesSent(), lengthSec);
            addOrNull(received, i.bytesReceived(), lengthSec);
        }
        return out;
    }

    /** {@code value / divisor}, rounded; null when the value is not known. */
    private static void addOrNull(ArrayNode to, Long value, double divisor) {
        if (value == null) {
            to.addNull();
        } else {
            to.add(PercentileCurve.round(value / divisor));
        }
    }

    /** Each pause as [seconds after the measured phase began, duration ms, name]. */
    private static ArrayNode pauses(JsonNode timeline, double startEpochMs) {
        ArrayNode out = NODES.arrayNode();
        for (JsonNode p : timeline) {
            ArrayNode pause = out.addArray();
            pause.add(PercentileCurve.round((p.path("startEpochMs").asDouble() - startEpochMs) / 1000));
            pause.add(PercentileCurve.round(p.path("durationMs").asDouble()));
            pause.add(p.path("name").asText());
        }
        return out;
    }

    /**
     * A side's CPU in the measured phase, each figure a share of the CPUs it was given: {@code measuredPercent}, its
     * process's CPU time over the measured phase (the figure its verdict's evidence quotes: the target's as its admin
     * endpoint counted it, the generator's its own), and {@code busiestSecondPercent}, JFR's highest one-second load
     * rescaled from the machine to those CPUs; with its allocation rate.
     */
    private static ObjectNode cpu(String side, JsonNode jfrCpu, JsonNode summary, CpusGiven cpusGiven) {
        ObjectNode cpu = NODES.objectNode();
        JsonNode measured = side.equals("target") ? summary.path("targetCpuPercent")
                : summary.path("generatorCost").path("processCpuPercent");
        cpu.set("measuredPercent", measured.isNumber() ? measured : NODES.nullNode());
        JsonNode busiest = cpuOfMachine(jfrCpu, "maxPercent");
        cpu.set("busiestSecondPercent", busiest.isNumber() ? NODES.numberNode(cpusGiven.shareOf(side, busiest.asDouble()))
                : NODES.nullNode());
        cpu.set("allocationMBPerSec", jfrCpu.path("allocationMBPerSec").isNumber() ? jfrCpu.path("allocationMBPerSec") : NODES.nullNode());
        return cpu;
    }

    /** A figure of JFR's CPU load, a share of the machine: {@code NAMEOfMachine}, or {@code NAME} as written before it said so. */
    private static JsonNode cpuOfMachine(JsonNode node, String name) {
        return node.has(name + "OfMachine") ? node.path(name + "OfMachine") : node.path(name);
    }

    /**
     * Each series of JvmMetrics.Samples as [[seconds after the measured phase began, value], ...] but JFR's CPU load, a
     * share of the machine, which the page draws rescaled to the CPUs given ({@code cpuPercentOfGiven}).
     */
    private static ObjectNode samples(JsonNode samples, double startEpochMs) {
        ObjectNode out = NODES.objectNode();
        samples.properties().stream().filter(series -> !series.getKey().startsWith("cpuPercent"))
                .forEach(series -> out.set(series.getKey(), points(series.getValue(), startEpochMs, value -> value)));
        return out;
    }

    /** A series of samples as [[seconds after the measured phase began, its value through {@code scale}], ...]. */
    private static ArrayNode points(JsonNode series, double startEpochMs, DoubleUnaryOperator scale) {
        ArrayNode points = NODES.arrayNode();
        for (JsonNode sample : series) {
            points.addArray().add(PercentileCurve.round((sample.path("epochMs").asDouble() - startEpochMs) / 1000))
                    .add(PercentileCurve.round(scale.applyAsDouble(sample.path("value").asDouble())));
        }
        return points;
    }

    private static ArrayNode files(Path runDir) {
        ArrayNode names = NODES.arrayNode();
        if (Files.isDirectory(runDir)) {
            try (Stream<Path> files = Files.list(runDir)) {
                files.filter(Files::isRegularFile).map(f -> f.getFileName().toString()).sorted().forEach(names::add);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + runDir, e);
            }
        }
        return names;
    }

    private static ArrayNode numbers(List<Double> values) {
        ArrayNode array = NODES.arrayNode();
        values.forEach(array::add);
        return array;
    }

    /** The file's JSON; a missing node when it does not read, which is then named in {@code unreadable}. */
    private JsonNode readJson(Path file) {
        try {
            return Json.json().readTree(file.toFile());
        } catch (IOException e) {
            unreadable(file, e);
            return NODES.missingNode();
        }
    }

    /** The interval log; null when the run wrote none or it does not read (then named in {@code unreadable}). */
    private IntervalLog readLog(Path file) {
        try {
            return IntervalLog.read(file);
        } catch (RuntimeException e) {
            // HdrHistogram's reader throws what it meets in a broken line: a decoding or a format error.
            unreadable(file, e);
            return null;
        }
    }

    /** How a per-interval log of the generator reads. */
    private interface IntervalsReader<T> {
        List<T> read(Path file) throws IOException;
    }

    /** The log's intervals; none when the run wrote no such file or it does not read (then named in {@code unreadable}). */
    private <T> Optional<List<T>> readIntervals(Path file, IntervalsReader<T> reader) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(reader.read(file));
        } catch (IOException | RuntimeException e) {
            unreadable(file, e);
            return Optional.empty();
        }
    }

    private void unreadable(Path file, Exception e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        ObjectNode entry = unreadable.addObject();
        entry.put("file", resultsDir.relativize(file).toString());
        entry.put("problem", message.lines().findFirst().orElse(""));
    }
}
