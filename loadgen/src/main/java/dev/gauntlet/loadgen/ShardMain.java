package dev.gauntlet.loadgen;

import dev.gauntlet.api.CpuModel;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.ShardStart;
import dev.gauntlet.loadgen.split.LoadShares;
import dev.gauntlet.loadgen.split.ShardArchive;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;

/**
 * One shard of a load spread over many machines: a pod of the runner's Indexed Job runs
 *
 * <pre>
 * java -cp /opt/gauntlet/lib/* dev.gauntlet.loadgen.ShardMain --spec /etc/gauntlet/spec/spec.json --shards 3 \
 *      --ready-file /results/.ready --start-file /etc/gauntlet/control/start-at --output /results
 * </pre>
 *
 * <p>It takes share {@code JOB_COMPLETION_INDEX} of the whole load in {@code spec.json} (a shard may still
 * split over local processes and threads), runs the generator's checks against the target, writes
 * the ready file (the pod's readiness probe looks for it), then waits for the start instant to
 * appear in the start file and begins at that instant. A shard that is told the instant only
 * after it has passed, or not within {@code --start-timeout} seconds, exits with
 * {@value #MISSED_START}: a late start would distort the load the shards offer together. After
 * the run it writes {@code shard.json} and prints its result files in its output
 * ({@link ShardArchive}), where the runner reads them from the pod's log.
 *
 * <p>Exit 0: the run completed; 2: bad input, the checks failed or the target is unreachable;
 * {@value #MISSED_START}: the common start was missed.
 */
public final class ShardMain {
    /** The exit code of a shard that missed the common start; the Job's pod-failure policy names it. */
    public static final int MISSED_START = 3;
    public static final String INDEX_VARIABLE = "JOB_COMPLETION_INDEX";
    private static final long POLL_MS = 20;
    private static final long DEFAULT_START_TIMEOUT_SEC = 600;
    /** A day: longer than any wait for the other shards' pods, and its milliseconds far from overflowing. */
    private static final long MAX_START_TIMEOUT_SEC = 86_400;

    private ShardMain() {
    }

    private static final String USAGE = "usage: ShardMain --spec spec.json --shards N --ready-file FILE --start-file FILE "
            + "--output DIR [--start-timeout SECONDS], with " + INDEX_VARIABLE + " set";

    /** The command line: where the spec is, how many shards, and the files that carry ready and start. */
    private record Options(Path specFile, int shards, Path readyFile, Path startFile, Path outputDir, long startTimeoutMs) {
        static Options parse(String[] args) {
            Path specFile = null;
            Path outputDir = null;
            Path readyFile = null;
            Path startFile = null;
            int shards = 0;
            long startTimeoutSec = DEFAULT_START_TIMEOUT_SEC;
            for (int i = 0; i < args.length; i += 2) {
                String value = GeneratorMain.required(args[i], i + 1 < args.length ? args[i + 1] : null);
                switch (args[i]) {
                    case "--spec" -> specFile = Path.of(value);
                    case "--output" -> outputDir = Path.of(value);
                    case "--ready-file" -> readyFile = Path.of(value);
                    case "--start-file" -> startFile = Path.of(value);
                    case "--shards" -> shards = (int) inRange("--shards", value, 1, Integer.MAX_VALUE);
                    case "--start-timeout" -> startTimeoutSec = inRange("--start-timeout", value, 1, MAX_START_TIMEOUT_SEC);
                    default -> GeneratorMain.exit("unknown argument " + args[i] + "; " + USAGE);
                }
            }
            if (specFile == null || outputDir == null || readyFile == null || startFile == null || shards < 1) {
                GeneratorMain.exit(USAGE);
            }
            return new Options(specFile, shards, readyFile, startFile, outputDir, startTimeoutSec * 1_000);
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
        if (GeneratorMain.runUntilSignalled(() -> run(options, index, LoadShares.shard(whole, index, options.shards())))) {
            System.exit(0);
        }
    }

    /** Checks, reports ready, waits for the common start, runs the share and passes its files on. */
    private static void run(Options options, int index, LoadSpec share) {
        System.err.printf("gauntlet shard %d of %d: %s -> %s%n", index, options.shards(), share.model().describe(), share.url());
        Generator.check(share);
        long readyAt = System.currentTimeMillis();
        write(options.readyFile(), Long.toString(readyAt));
        System.err.printf("gauntlet shard %d: ready; waiting for the start instant in %s%n", index, options.startFile());
        long startAt = awaitStartInstant(options.startFile(), readyAt + options.startTimeoutMs());
        GeneratorMain.waitUntil(startAt);
        ShardStart started = new ShardStart(index, options.shards(), readyAt, startAt, System.currentTimeMillis(),
                System.getenv(ShardStart.NODE_VARIABLE), CpuModel.read());
        Path output = options.outputDir();
        Generator.runFrom(share, output, Instant.ofEpochMilli(startAt));
        try {
            Json.json().writeValue(new RunDirectory(output).shardStart().toFile(), started);
            ShardArchive.print(output, options.readyFile().getFileName().toString(), System.out);
        } catch (IOException e) {
            throw new GeneratorException("cannot pass on the shard's results from " + output + ": " + e.getMessage());
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

    /** Polls the start file (its content is the start instant, in epoch ms) until it holds one still ahead. */
    private static long awaitStartInstant(Path startFile, long deadlineEpochMs) {
        while (true) {
            String text = read(startFile);
            if (!text.isEmpty()) {
                long startAt = GeneratorMain.parseLong("the start instant in " + startFile, text);
                long lateMs = System.currentTimeMillis() - startAt;
                if (lateMs > 0) {
                    throw new GeneratorException("missed the common start by " + lateMs + " ms: the instant reached "
                            + "this shard too late; give the shards a longer lead (--start-lead) or check the nodes' clocks",
                            MISSED_START);
                }
                return startAt;
            }
            if (System.currentTimeMillis() > deadlineEpochMs) {
                throw new GeneratorException("no start instant in " + startFile + " by "
                        + Instant.ofEpochMilli(deadlineEpochMs) + ", the --start-timeout after being ready", MISSED_START);
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                throw new GeneratorException("stopped while waiting for the start instant");
            }
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (NoSuchFileException e) {
            return "";
        } catch (IOException e) {
            throw new GeneratorException("cannot read the start instant from " + file + ": " + e.getMessage());
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
