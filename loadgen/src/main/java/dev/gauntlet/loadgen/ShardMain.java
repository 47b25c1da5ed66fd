package dev.gauntlet.loadgen;

import dev.gauntlet.api.CpuModel;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.ShardStart;
import dev.gauntlet.loadgen.failure.GeneratorException;
import dev.gauntlet.loadgen.run.Generator;
import dev.gauntlet.loadgen.split.LoadShares;
import dev.gauntlet.loadgen.split.ResultsServer;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * One shard of a load spread over many machines: a pod of the runner's Indexed Job runs
 *
 * <pre>
 * java -XX:StartFlightRecording=name=gauntlet-shard,... -cp /opt/gauntlet/lib/* dev.gauntlet.loadgen.ShardMain \
 *      --spec /etc/gauntlet/spec/spec.json --shards 3 --ready-file /results/.ready \
 *      --start-file /etc/gauntlet/control/start-at --collected-file /etc/gauntlet/control/collected --output /results
 * </pre>
 *
 * <p>It takes share {@code JOB_COMPLETION_INDEX} of the whole load in {@code spec.json} (a shard may still
 * split over local processes and threads) and serves its results ({@link ResultsServer}), saying at
 * which port in its output ({@code gauntlet shard 0: results at port 41234}). It runs the
 * generator's checks against the target, writes the ready file (the pod's readiness probe looks for
 * it), then waits for the start instant to appear in the start file and begins at that instant. A
 * shard that is told the instant only after it has passed, or not within {@code --start-timeout}
 * seconds, exits with {@value #MISSED_START}: a late start would distort the load the shards offer
 * together. After the run it writes {@code shard.json} and its JVM's recording
 * {@value #RECORDING} as {@code generator.jfr}, serves the directory, and waits for the collected file
 * to hold something: the runner has its copy. Not collected within {@code --collect-timeout}
 * seconds, it says so and ends all the same.
 *
 * <p>Exit 0: the run completed; 2: bad input, the checks failed or the target is unreachable;
 * {@value #MISSED_START}: the common start was missed.
 */
public final class ShardMain {
    /** The exit code of a shard that missed the common start; the Job's pod-failure policy names it. */
    public static final int MISSED_START = 3;
    public static final String INDEX_VARIABLE = "JOB_COMPLETION_INDEX";
    /** The name of the JFR recording the shard's JVM is started with, dumped as its {@code generator.jfr}. */
    public static final String RECORDING = "gauntlet-shard";
    private static final long POLL_MS = 20;
    private static final long DEFAULT_START_TIMEOUT_SEC = 600;
    private static final long DEFAULT_COLLECT_TIMEOUT_SEC = 600;
    /** A day: longer than any wait for the other shards' pods, and its milliseconds far from overflowing. */
    private static final long MAX_TIMEOUT_SEC = 86_400;

    private ShardMain() {
    }

    private static final String USAGE = "usage: ShardMain --spec spec.json --shards N --ready-file FILE --start-file FILE "
            + "--collected-file FILE --output DIR [--start-timeout SECONDS] [--collect-timeout SECONDS], with "
            + INDEX_VARIABLE + " set";

    /** The command line: where the spec is, how many shards, and the files that carry ready, start and collected. */
    private record Options(Path specFile, int shards, Path readyFile, Path startFile, Path collectedFile, Path outputDir,
                           long startTimeoutMs, long collectTimeoutMs) {
        static Options parse(String[] args) {
            Path specFile = null;
            Path outputDir = null;
            Path readyFile = null;
            Path startFile = null;
            Path collectedFile = null;
            int shards = 0;
            long startTimeoutSec = DEFAULT_START_TIMEOUT_SEC;
            long collectTimeoutSec = DEFAULT_COLLECT_TIMEOUT_SEC;
            for (int i = 0; i < args.length; i += 2) {
                String value = GeneratorMain.required(args[i], i + 1 < args.length ? args[i + 1] : null);
                switch (args[i]) {
                    case "--spec" -> specFile = Path.of(value);
                    case "--output" -> outputDir = Path.of(value);
                    case "--ready-file" -> readyFile = Path.of(value);
                    case "--start-file" -> startFile = Path.of(value);
                    case "--collected-file" -> collectedFile = Path.of(value);
                    case "--shards" -> shards = (int) inRange("--shards", value, 1, Integer.MAX_VALUE);
                    case "--start-timeout" -> startTimeoutSec = inRange("--start-timeout", value, 1, MAX_TIMEOUT_SEC);
                    case "--collect-timeout" -> collectTimeoutSec = inRange("--collect-timeout", value, 1, MAX_TIMEOUT_SEC);
                    default -> GeneratorMain.exit("unknown argument " + args[i] + "; " + USAGE);
                }
            }
            if (specFile == null || outputDir == null || readyFile == null || startFile == null || collectedFile == null
                    || shards < 1) {
                GeneratorMain.exit(USAGE);
            }
            return new Options(specFile, shards, readyFile, startFile, collectedFile, outputDir, startTimeoutSec * 1_000,
                    collectTimeoutSec * 1_000);
        }

        private static long inRange(String flag, String text, long min, long max) {
            long value = GeneratorMain.parseLong(flag, text);
            if (value < min || value > max) {
                GeneratorMain.exit(flag + " must be " + min + " to " + max + ", got " + value);
            }
            return value;
        }
    }

    public static void main(String[] args) {
        Options options = Options.parse(args);
        int index = index(System.getenv(INDEX_VARIABLE), options.shards());
        LoadSpec whole = GeneratorMain.readSpec(options.specFile());
        try (ResultsServer results = serve(options, index)) {
            if (GeneratorMain.runUntilSignalled(() -> run(options, index, LoadShares.shard(whole, index, options.shards()),
                    results))) {
                System.exit(0);
            }
        }
    }

    /** Before anything else: the runner reads the port from the pod's log once the pod is Ready. */
    private static ResultsServer serve(Options options, int index) {
        try {
            Files.createDirectories(options.outputDir());
            ResultsServer results = ResultsServer.start(options.outputDir(), options.readyFile().getFileName().toString());
            System.err.printf("gauntlet shard %d: results at port %d%n", index, results.port());
            return results;
        } catch (IOException e) {
            GeneratorMain.exit("cannot serve the shard's results from " + options.outputDir() + ": " + e.getMessage());
            throw new AssertionError("unreachable");
        }
    }

    /** Checks, reports ready, waits for the common start, runs the share, serves its files until they are collected. */
    private static void run(Options options, int index, LoadSpec share, ResultsServer results) {
        System.err.printf("gauntlet shard %d of %d: %s -> %s%n", index, options.shards(), share.model().describe(), share.url());
        Generator.check(share);
        long readyAt = System.currentTimeMillis();
        write(options.readyFile(), Long.toString(readyAt));
        System.err.printf("gauntlet shard %d: ready; waiting for the start instant in %s%n", index, options.startFile());
        long startTimeoutAt = readyAt + options.startTimeoutMs();
        String startText = awaitFile(options.startFile(), startTimeoutAt).orElseThrow(() -> new GeneratorException(
                "no start instant in " + options.startFile() + " by " + Instant.ofEpochMilli(startTimeoutAt)
                        + ", the --start-timeout after being ready", MISSED_START));
        long startAt = GeneratorMain.parseLong("the start instant in " + options.startFile(), startText);
        long lateMs = System.currentTimeMillis() - startAt;
        if (lateMs > 0) {
            throw new GeneratorException("missed the common start by " + lateMs + " ms: the instant reached "
                    + "this shard too late; give the shards a longer lead (--start-lead) or check the nodes' clocks",
                    MISSED_START);
        }
        GeneratorMain.waitUntil(startAt);
        ShardStart started = new ShardStart(index, options.shards(), readyAt, startAt, System.currentTimeMillis(),
                System.getenv(ShardStart.NODE_VARIABLE), CpuModel.read());
        Path output = options.outputDir();
        GeneratorMain.runFrom(share, output, Instant.ofEpochMilli(startAt));
        try {
            Json.json().writeValue(new RunDirectory(output).shardStart().toFile(), started);
        } catch (IOException e) {
            throw new GeneratorException("cannot write the shard's start into " + output + ": " + e.getMessage());
        }
        dumpRecording(new RunDirectory(output).generatorJfr());
        results.done();
        System.err.printf("gauntlet shard %d: done; results served until collected%n", index);
        if (awaitFile(options.collectedFile(), System.currentTimeMillis() + options.collectTimeoutMs()).isEmpty()) {
            System.err.printf("gauntlet shard %d: its results were not collected within %d s; they are lost with the pod%n",
                    index, options.collectTimeoutMs() / 1_000);
        }
    }

    /**
     * The JVM's recording into {@code file}: one JVM per shard, so all of it is this run's. A JVM started
     * without it (by hand, say) has none to dump.
     */
    private static void dumpRecording(Path file) {
        if (!FlightRecorder.isInitialized()) {
            return;
        }
        for (Recording recording : FlightRecorder.getFlightRecorder().getRecordings()) {
            if (recording.getName().equals(RECORDING)) {
                try {
                    recording.dump(file);
                } catch (IOException e) {
                    System.err.println("gauntlet shard: no generator.jfr, its recording could not be dumped: " + e.getMessage());
                }
            }
        }
    }

    private static int index(String value, int shards) {
        if (value == null) {
            GeneratorMain.exit(INDEX_VARIABLE + " is not set: a shard runs as a pod of an Indexed Job");
        }
        long index = GeneratorMain.parseLong(INDEX_VARIABLE, value);
        if (index < 0 || index >= shards) {
            GeneratorMain.exit(INDEX_VARIABLE + " " + index + " is not a shard of 0 to " + (shards - 1));
        }
        return (int) index;
    }

    /** Polls {@code file} until it holds something, and returns it; empty past the deadline. */
    private static Optional<String> awaitFile(Path file, long deadlineEpochMs) {
        while (true) {
            String text = read(file);
            if (!text.isEmpty()) {
                return Optional.of(text);
            }
            if (System.currentTimeMillis() > deadlineEpochMs) {
                return Optional.empty();
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                throw new GeneratorException("stopped while waiting for " + file);
            }
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (NoSuchFileException e) {
            return "";
        } catch (IOException e) {
            throw new GeneratorException("cannot read " + file + ": " + e.getMessage());
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new GeneratorException("cannot write the ready file " + file + ": " + e.getMessage());
        }
    }
}
