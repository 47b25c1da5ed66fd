package dev.gauntlet.api;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The files of one run's directory, each named here once and each written by one owner: the
 * generator writes its own, a split generator merges its children's, the runner adds its own
 * beside them ({@code jvm.json}, {@code stats.json}, {@code target.jfr}) and reads them all back
 * for tables, the report and {@code compare}.
 *
 * <pre>{@code
 * RunDirectory run = new RunDirectory(runDir);
 * Json.json().readValue(run.summary().toFile(), RunSummary.class);
 * IntervalLog.read(run.log(RunDirectory.HistogramLog.RESPONSE));
 * }</pre>
 *
 * @param path the directory, e.g. {@code results/quick-.../runs/<target>/<scenario>/<rep>}, or a generator's {@code --output}
 */
public record RunDirectory(Path path) {
    /** The HdrHistogram interval logs of a run ({@code <id>.hlog}), values in nanoseconds. */
    public enum HistogramLog {
        /** Response time from the intended start. */
        RESPONSE,
        /** Service time from the actual send. */
        SERVICE,
        /** Schedule lag: actual send minus intended start. */
        LAG,
        /** The platform's hiccups seen by the generator. */
        HICCUP,
        /** The platform's hiccups seen by the target, read from its admin port. */
        TARGET_HICCUP;

        /** The log's name without {@code .hlog}: {@code response}, ..., {@code target-hiccup}. */
        public String id() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** Its file's name, e.g. {@code response.hlog}. */
        public String fileName() {
            return id() + ".hlog";
        }
    }

    /** The run's {@link RunSummary}, the generator's alone. */
    public Path summary() {
        return path.resolve("summary.json");
    }

    /** Writes {@code summary} as the run's {@link #summary()}. */
    public void writeSummary(RunSummary summary) throws IOException {
        Json.json().writeValue(summary().toFile(), summary);
    }

    /**
     * The run's {@link RunJvmCosts}, which the runner adds; absent from a generator's own {@code --output}, and from
     * run directories written before it, whose {@code summary.json} holds them as {@code jvm}.
     */
    public Path jvm() {
        return path.resolve("jvm.json");
    }

    /** The {@link LoadSpec} the generator ran. */
    public Path spec() {
        return path.resolve("spec.json");
    }

    /** One of the run's HdrHistogram interval logs. */
    public Path log(HistogramLog log) {
        return path.resolve(log.fileName());
    }

    /** The errors per interval by {@link ErrorClass}. */
    public Path errors() {
        return path.resolve("errors.csv");
    }

    /**
     * The generator's traffic second by second over the whole run, warm-up included: requests in flight and
     * connections open at each interval's end, bytes sent and received in it (loadgen's {@code TrafficLog}).
     */
    public Path traffic() {
        return path.resolve("traffic.csv");
    }

    /**
     * Each role's CPUs' capacity, second by second over the run: {@code role} ({@code target} or {@code generator}),
     * then the columns of hiccup's {@code CapacityLog}.
     */
    public Path capacity() {
        return path.resolve("capacity.csv");
    }

    /** The generator JVM's output. */
    public Path generatorLog() {
        return path.resolve("generator.log");
    }

    /** The target's admin {@code /stats} at the run's end, as served. */
    public Path stats() {
        return path.resolve("stats.json");
    }

    /** The target JVM's flight recording of the run's window. */
    public Path targetJfr() {
        return path.resolve("target.jfr");
    }

    /** The generator JVM's flight recording. */
    public Path generatorJfr() {
        return path.resolve("generator.jfr");
    }

    /** A generator shard's {@link ShardStart}. */
    public Path shardStart() {
        return path.resolve("shard.json");
    }

    /** A generator shard's output, its archive left out. */
    public Path shardLog() {
        return path.resolve("shard.log");
    }
}
