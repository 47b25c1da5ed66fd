package dev.gauntlet.loadgen;

import com.fasterxml.jackson.core.JacksonException;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.hiccup.ParentWatch;
import dev.gauntlet.loadgen.failure.GeneratorException;
import dev.gauntlet.loadgen.run.Generator;
import dev.gauntlet.loadgen.split.MultiProcess;
import dev.gauntlet.loadgen.warmup.JitWarmup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * The generator as its own process, as the runner starts it:
 *
 * <pre>
 * java -cp loadgen/target/gauntlet-loadgen.jar:loadgen/target/lib/* dev.gauntlet.loadgen.GeneratorMain \
 *      --spec run/spec.json --output run/
 * </pre>
 *
 * <p>{@code spec.json} is a {@link LoadSpec} as {@code Json.json()} writes it. The generator's own JIT
 * is warmed first, against a loopback sink in this process ({@link Generator#runWarmed}), unless
 * {@code --start-at EPOCH_MS} delays the start to that instant, so that processes sharing one load
 * start together, or the JVM option {@code -Dgauntlet.jitWarmup=false} (a suite's {@code jvm.generator}) asks for a
 * cold generator, as {@code load --no-jit-warmup} does. Exit 0 when the run
 * completed (request errors included, they are in {@code summary.json}); exit 2 with one line on
 * stderr for bad input or an unreachable target. SIGTERM ends the run early and still writes
 * the files.
 */
public final class GeneratorMain {
    private static final long SHUTDOWN_GRACE_MS = 10_000;
    /** The JVM option that leaves the JIT warm-up out: {@code -Dgauntlet.jitWarmup=false}. */
    static final String JIT_WARMUP_PROPERTY = "gauntlet.jitWarmup";

    private GeneratorMain() {
    }

    public static void main(String[] args) {
        ParentWatch.start();
        Path specFile = null;
        Path outputDir = null;
        long startAtEpochMs = 0;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--spec" -> specFile = Path.of(required("--spec", value));
                case "--output" -> outputDir = Path.of(required("--output", value));
                case "--start-at" -> startAtEpochMs = parseLong("--start-at", required("--start-at", value));
                default -> exit("unknown argument " + args[i] + "; usage: GeneratorMain --spec spec.json --output DIR");
            }
            i++;
        }
        if (specFile == null || outputDir == null) {
            exit("usage: GeneratorMain --spec spec.json --output DIR");
        }
        LoadSpec spec = readSpec(specFile);
        long startAt = startAtEpochMs;
        Path output = outputDir;
        if (runUntilSignalled(() -> {
            if (startAt > 0) {
                // A share of a split load keeps the common start; its JIT warms in the run's own warm-up.
                waitUntil(startAt);
                Generator.runFrom(spec, output, Instant.ofEpochMilli(startAt));
            } else {
                run(spec, output, Boolean.parseBoolean(System.getProperty(JIT_WARMUP_PROPERTY, "true")));
            }
        })) {
            // The files are written: a client library's leftover non-daemon threads must not keep the process alive.
            System.exit(0);
        }
    }

    /**
     * Runs {@code spec} whole: over its processes when it has several ({@link MultiProcess}, each one of these), else in
     * this one, once this JVM's JIT has settled against a loopback sink when {@code warmJit} ({@link JitWarmup}), so that
     * the run measures the target rather than the generator compiling its loop. Either checks the load first.
     */
    static RunSummary run(LoadSpec spec, Path output, boolean warmJit) {
        if (spec.processes() > 1) {
            Generator.check(spec);
            return MultiProcess.run(spec, output, System.err, GeneratorMain.class);
        }
        if (warmJit) {
            Generator.check(spec);
            return Generator.runWarmed(spec, output, JitWarmup.run(spec, System.err));
        }
        return Generator.run(spec, output);
    }

    /**
     * A share of a split load from the common start {@code startAt}: in this process, or over its own processes when it
     * has several ({@link MultiProcess}, whose children start its lead after now rather than at {@code startAt}).
     */
    static RunSummary runFrom(LoadSpec share, Path output, Instant startAt) {
        return share.processes() > 1 ? MultiProcess.run(share, output, System.err, GeneratorMain.class)
                : Generator.runFrom(share, output, startAt);
    }

    /**
     * Runs {@code load}; SIGTERM interrupts it, and the JVM waits (at most 10 s) for it to write
     * its files. A {@link GeneratorException} ends the process: one line, and its exit code. Returns false
     * when a signal ended the load, and the JVM is already shutting down.
     */
    static boolean runUntilSignalled(Runnable load) {
        Thread main = Thread.currentThread();
        Thread stopOnSignal = Thread.ofPlatform().unstarted(() -> {
            main.interrupt();
            try {
                main.join(SHUTDOWN_GRACE_MS);
            } catch (InterruptedException ignored) {
                // The JVM is going down anyway.
            }
        });
        Runtime.getRuntime().addShutdownHook(stopOnSignal);
        GeneratorException failure = null;
        try {
            load.run();
        } catch (GeneratorException e) {
            failure = e;
        }
        try {
            // Before any exit: the hook would wait for this thread, which waits in exit for the hook.
            Runtime.getRuntime().removeShutdownHook(stopOnSignal);
        } catch (IllegalStateException shuttingDown) {
            // A signal ended the run; the hook is waiting for this thread to finish.
            return false;
        }
        if (failure != null) {
            exit(failure.exitCode(), failure.getMessage());
        }
        return true;
    }

    static LoadSpec readSpec(Path specFile) {
        try {
            return Json.json().readValue(Files.readString(specFile), LoadSpec.class);
        } catch (JacksonException e) {
            exit("invalid spec " + specFile + ": " + e.getOriginalMessage());
        } catch (IOException e) {
            exit("cannot read spec " + specFile + ": " + e);
        }
        throw new AssertionError("unreachable");
    }

    /** Processes split from one load start together, whenever each JVM came up. */
    static void waitUntil(long epochMs) {
        long waitMs = epochMs - System.currentTimeMillis();
        if (waitMs > 0) {
            try {
                Thread.sleep(waitMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static long parseLong(String flag, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            exit(flag + " needs a number, got " + value);
            return 0;
        }
    }

    static String required(String flag, String value) {
        if (value == null) {
            exit(flag + " needs a value");
        }
        return value;
    }

    static void exit(String message) {
        exit(2, message);
    }

    static void exit(int code, String message) {
        System.err.println("gauntlet generator: " + message);
        System.exit(code);
    }
}
