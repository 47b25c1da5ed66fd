package dev.gauntlet.loadgen;

import com.fasterxml.jackson.core.JacksonException;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The generator as its own process, as the runner starts it:
 *
 * <pre>
 * java -cp loadgen/target/gauntlet-loadgen.jar:loadgen/target/lib/* dev.gauntlet.loadgen.GeneratorMain \
 *      --spec run/spec.json --output run/
 * </pre>
 *
 * <p>{@code spec.json} is a {@link LoadSpec} as {@code Json.json()} writes it; {@code --start-at EPOCH_MS}
 * delays the start to that instant, so that processes sharing one load start together. Exit 0 when the run
 * completed (request errors included, they are in {@code summary.json}); exit 2 with one line on
 * stderr for bad input or an unreachable target. SIGTERM ends the run early and still writes
 * the files.
 */
public final class GeneratorMain {
    private static final long SHUTDOWN_GRACE_MS = 10_000;

    private GeneratorMain() {
    }

    public static void main(String[] args) {
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
        try {
            waitUntil(startAtEpochMs);
            Generator.run(spec, outputDir);
        } catch (GeneratorException e) {
            exit(e.getMessage());
        }
        try {
            Runtime.getRuntime().removeShutdownHook(stopOnSignal);
        } catch (IllegalStateException shuttingDown) {
            // A signal ended the run; the hook is waiting for this thread to finish.
            return;
        }
        // The files are written: a client library's leftover non-daemon threads must not keep the process alive.
        System.exit(0);
    }

    private static LoadSpec readSpec(Path specFile) {
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
    private static void waitUntil(long epochMs) {
        long waitMs = epochMs - System.currentTimeMillis();
        if (waitMs > 0) {
            try {
                Thread.sleep(waitMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static long parseLong(String flag, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            exit(flag + " needs a number, got " + value);
            return 0;
        }
    }

    private static String required(String flag, String value) {
        if (value == null) {
            exit(flag + " needs a value");
        }
        return value;
    }

    private static void exit(String message) {
        System.err.println("gauntlet generator: " + message);
        System.exit(2);
    }
}
