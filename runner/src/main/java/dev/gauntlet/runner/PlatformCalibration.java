package dev.gauntlet.runner;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.Percentiles;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The machine's noise floor, measured before a suite: two small JVMs, one on the target's CPUs and
 * one on the generator's, each measuring its hiccups while a byte goes back and forth between them
 * over 127.0.0.1 ({@code dev.gauntlet.hiccup.CalibrationMain}).
 *
 * <pre>{@code
 * PlatformFloor floor = new PlatformCalibration(home, cpus).measure(Duration.ofSeconds(10));
 * System.err.println(floor.describe());   // platform: wake-up p99 2.9 ms (target CPU 0) / ...
 * }</pre>
 */
final class PlatformCalibration {
    static final Duration DEFAULT_DURATION = Duration.ofSeconds(10);
    static final Duration MAX_DURATION = Duration.ofSeconds(30);
    private static final String MAIN_CLASS = "dev.gauntlet.hiccup.CalibrationMain";
    /** The main class travels in the generator's classpath (loadgen depends on the hiccup module). */
    private static final String MODULE = "loadgen";
    private static final List<String> JVM_OPTIONS = List.of("-Xmx64m", "-XX:+UseSerialGC");
    /** JVM start and exit, beyond the measured seconds. */
    private static final long GRACE_SEC = 20;

    private final GauntletHome home;
    private final CpuPlan cpus;

    PlatformCalibration(GauntletHome home, CpuPlan cpus) {
        this.home = home;
        this.cpus = cpus;
    }

    PlatformFloor measure(Duration duration) {
        long seconds = Math.max(1, duration.toSeconds());
        String classpath = home.classpathOf(MODULE);
        Process echo = null;
        Process ping = null;
        try {
            echo = start(new JavaCommand(cpus.pinTarget(), JVM_OPTIONS, classpath, MAIN_CLASS,
                    List.of("echo", "--seconds", Long.toString(seconds))));
            CompletableFuture<String> echoReady = new CompletableFuture<>();
            CompletableFuture<String> echoResult = new CompletableFuture<>();
            readLines(echo, echoReady, echoResult);
            String port = echoReady.get(GRACE_SEC, TimeUnit.SECONDS).substring("READY port=".length());
            ping = start(new JavaCommand(cpus.pinGenerator(), JVM_OPTIONS, classpath, MAIN_CLASS,
                    List.of("ping", "--port", port, "--seconds", Long.toString(seconds))));
            CompletableFuture<String> pingResult = new CompletableFuture<>();
            readLines(ping, new CompletableFuture<>(), pingResult);
            Result generatorSide = Json.json().readValue(pingResult.get(seconds + GRACE_SEC, TimeUnit.SECONDS), Result.class);
            Result targetSide = Json.json().readValue(echoResult.get(GRACE_SEC, TimeUnit.SECONDS), Result.class);
            return new PlatformFloor(seconds, cpus.targetCpus(), targetSide.hiccups(), cpus.generatorCpus(),
                    generatorSide.hiccups(), generatorSide.roundTrip());
        } catch (IOException | ExecutionException | TimeoutException e) {
            throw new UserError("the calibration JVMs gave no figures (" + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted during the platform calibration");
        } finally {
            for (Process p : new Process[] {ping, echo}) {
                if (p != null) {
                    p.destroyForcibly();
                }
            }
        }
    }

    /** One side's {@code RESULT} line. */
    record Result(Percentiles hiccups, Percentiles roundTrip) {
    }

    /**
     * The noise floor of one suite's machine.
     *
     * @param targetCpus    the CPUs the target side ran on ({@code ""}: not pinned)
     * @param roundTrip     one byte to the target's CPUs and back over 127.0.0.1, every 2 ms
     */
    record PlatformFloor(long seconds, String targetCpus, Percentiles targetHiccups, String generatorCpus,
                         Percentiles generatorHiccups, Percentiles roundTrip) {

        /** The suite's first line, e.g. {@code platform: wake-up p99 2.9 ms (target CPU 0) / ...}. */
        String describe() {
            return String.format(Locale.ROOT, "platform: wake-up p99 %s ms (target %s) / %s ms (generator %s), "
                            + "max %s / %s ms; loopback round trip p50 %.0f µs, p99 %.0f µs (%d s calibration)",
                    ResultsTable.millis(targetHiccups.p99Ms()), where(targetCpus),
                    ResultsTable.millis(generatorHiccups.p99Ms()), where(generatorCpus),
                    ResultsTable.millis(targetHiccups.maxMs()), ResultsTable.millis(generatorHiccups.maxMs()),
                    roundTrip.p50Ms() * 1000, roundTrip.p99Ms() * 1000, seconds);
        }

        private static String where(String cpus) {
            return cpus.isEmpty() ? "not pinned" : (cpus.matches("\\d+") ? "CPU " : "CPUs ") + cpus;
        }
    }

    private static Process start(JavaCommand command) throws IOException {
        Process process = new ProcessBuilder(command.toArgv()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        process.getOutputStream().close();
        return process;
    }

    private static void readLines(Process process, CompletableFuture<String> ready, CompletableFuture<String> result) {
        Thread.ofPlatform().daemon().name("calibration-" + process.pid()).start(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    if (line.startsWith("READY port=")) {
                        ready.complete(line);
                    } else if (line.startsWith("RESULT ")) {
                        result.complete(line.substring("RESULT ".length()));
                    }
                }
            } catch (IOException e) {
                // The process ended; the futures say what was missing.
            }
            IllegalStateException ended = new IllegalStateException("a calibration JVM ended without its result");
            ready.completeExceptionally(ended);
            result.completeExceptionally(ended);
        });
    }
}
