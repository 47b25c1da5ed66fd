package dev.gauntlet.runner.metrics;

import dev.gauntlet.api.CapacityLevel;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.Numbers;
import dev.gauntlet.api.Percentiles;
import dev.gauntlet.loadgen.split.JavaCommand;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.isolation.RolePlacement;
import org.apache.commons.statistics.descriptive.DoubleStatistics;
import org.apache.commons.statistics.descriptive.Statistic;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The machine's noise floor, measured before a suite: two small JVMs placed as the target and the
 * generator are ({@link RolePlacement}), each measuring its hiccups and its CPUs' capacity while a byte
 * goes back and forth between them over 127.0.0.1 ({@code dev.gauntlet.hiccup.CalibrationMain}). With the target
 * in its network namespace, the echo listens on the veth, and a second echo on the target's CPUs
 * in the runner's namespace gives the loopback round trip in the same seconds, for comparison.
 *
 * <pre>{@code
 * PlatformFloor floor = new PlatformCalibration(home, isolation.target(), isolation.generator()).measure(Duration.ofSeconds(10));
 * System.err.println(floor.describe());   // platform: wake-up p99 2.9 ms (target CPU 0) / ...
 * }</pre>
 */
public final class PlatformCalibration {
    public static final Duration DEFAULT_DURATION = Duration.ofSeconds(10);
    public static final Duration MAX_DURATION = Duration.ofSeconds(30);
    public static final String MAIN_CLASS = "dev.gauntlet.hiccup.CalibrationMain";
    /** The main class travels in the generator's classpath (loadgen depends on the hiccup module). */
    private static final String MODULE = "loadgen";
    private static final List<String> JVM_OPTIONS = List.of("-Xmx64m", "-XX:+UseSerialGC");
    /** JVM start and exit, beyond the measured seconds. */
    private static final long GRACE_SEC = 20;

    private final GauntletHome home;
    private final RolePlacement target;
    private final RolePlacement generator;

    public PlatformCalibration(GauntletHome home, RolePlacement target, RolePlacement generator) {
        this.home = home;
        this.target = target;
        this.generator = generator;
    }

    public PlatformFloor measure(Duration duration) {
        long seconds = Math.max(1, duration.toSeconds());
        String classpath = home.classpathOf(MODULE);
        List<Process> started = new ArrayList<>();
        try {
            String host = target.host();
            Process echo = start(target, new JavaCommand(JVM_OPTIONS, classpath, MAIN_CLASS,
                    List.of("echo", "--bind", host, "--seconds", Long.toString(seconds))), started);
            CompletableFuture<String> echoReady = new CompletableFuture<>();
            CompletableFuture<String> echoResult = new CompletableFuture<>();
            readLines(echo, echoReady, echoResult);
            List<String> pingArgs = new ArrayList<>(List.of("ping", "--host", host, "--port", portOf(echoReady),
                    "--seconds", Long.toString(seconds)));
            if (target.acrossVeth()) {
                Process loopbackEcho = start(target.inRootNamespace(), new JavaCommand(JVM_OPTIONS, classpath, MAIN_CLASS,
                        List.of("echo", "--seconds", Long.toString(seconds))), started);
                CompletableFuture<String> loopbackReady = new CompletableFuture<>();
                readLines(loopbackEcho, loopbackReady, new CompletableFuture<>());
                pingArgs.addAll(List.of("--loopback-port", portOf(loopbackReady)));
            }
            Process ping = start(generator, new JavaCommand(JVM_OPTIONS, classpath, MAIN_CLASS, pingArgs), started);
            CompletableFuture<String> pingResult = new CompletableFuture<>();
            readLines(ping, new CompletableFuture<>(), pingResult);
            Result generatorSide = Json.json().readValue(pingResult.get(seconds + GRACE_SEC, TimeUnit.SECONDS), Result.class);
            Result targetSide = Json.json().readValue(echoResult.get(GRACE_SEC, TimeUnit.SECONDS), Result.class);
            return new PlatformFloor(seconds, target.cpus(), targetSide.hiccups(), generator.cpus(),
                    generatorSide.hiccups(), target.acrossVeth() ? "veth" : "loopback", generatorSide.roundTrip(),
                    generatorSide.loopbackRoundTrip(), targetSide.capacity().level(), generatorSide.capacity().level());
        } catch (IOException | ExecutionException | TimeoutException e) {
            throw new UserError("the calibration JVMs gave no figures (" + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted during the platform calibration");
        } finally {
            started.forEach(Process::destroyForcibly);
        }
    }

    private static String portOf(CompletableFuture<String> ready) throws InterruptedException, ExecutionException, TimeoutException {
        return ready.get(GRACE_SEC, TimeUnit.SECONDS).substring("READY port=".length());
    }

    /** One side's {@code RESULT} line; {@code loopbackRoundTrip} only when the ping also went over loopback. */
    record Result(Percentiles hiccups, Percentiles roundTrip, Percentiles loopbackRoundTrip, Capacity capacity) {
    }

    /** A side's {@code capacity} as its {@code RESULT} line gives it: each whole second's index, and what they are made of. */
    record Capacity(List<Double> indexes, double probeUs, double stolenShare, double foreignShare) {
        /** With their mean and standard deviation; null without a whole second (a calibration of 1 s), which is unknown. */
        CapacityLevel level() {
            if (indexes.isEmpty()) {
                return null;
            }
            DoubleStatistics stats = DoubleStatistics.of(EnumSet.of(Statistic.MEAN, Statistic.STANDARD_DEVIATION),
                    indexes.stream().mapToDouble(Double::doubleValue).toArray());
            return new CapacityLevel(indexes, stats.getAsDouble(Statistic.MEAN), stats.getAsDouble(Statistic.STANDARD_DEVIATION),
                    indexes.size(), probeUs, stolenShare, foreignShare);
        }
    }

    /**
     * The noise floor of one suite's machine.
     *
     * @param targetCpus        the CPUs the target side ran on ({@code ""}: not pinned)
     * @param path              {@code loopback}, or {@code veth} when the target side ran in its network namespace
     * @param roundTrip         one byte to the target's CPUs and back over {@code path}, every 2 ms
     * @param loopbackRoundTrip on the veth path: the same over 127.0.0.1, alternating with it; else null
     * @param targetCapacity    what the target's CPUs could run, second by second ({@code compare} tests BASE's against
     *                          NEW's); null when not measured (a calibration of 1 s, or {@code suite.json} written before)
     * @param generatorCapacity the same of the generator's CPUs
     */
    public record PlatformFloor(long seconds, String targetCpus, Percentiles targetHiccups, String generatorCpus,
                                Percentiles generatorHiccups, String path, Percentiles roundTrip, Percentiles loopbackRoundTrip,
                                CapacityLevel targetCapacity, CapacityLevel generatorCapacity) {

        /**
         * The suite's first line, e.g. {@code platform: wake-up p99 2.9 ms (target CPU 0) / ...; capacity 1,890 (±2 %)
         * target / 1,905 (±1 %) generator (10 s calibration)}.
         */
        public String describe() {
            String line = String.format(Locale.ROOT, "platform: wake-up p99 %s ms (target %s) / %s ms (generator %s), "
                            + "max %s / %s ms; %s round trip p50 %.0f µs, p99 %.0f µs",
                    Numbers.millis(targetHiccups.p99Ms()), where(targetCpus),
                    Numbers.millis(generatorHiccups.p99Ms()), where(generatorCpus),
                    Numbers.millis(targetHiccups.maxMs()), Numbers.millis(generatorHiccups.maxMs()),
                    path, roundTrip.p50Ms() * 1000, roundTrip.p99Ms() * 1000);
            if (loopbackRoundTrip != null) {
                line += String.format(Locale.ROOT, " (loopback p50 %.0f µs, p99 %.0f µs)",
                        loopbackRoundTrip.p50Ms() * 1000, loopbackRoundTrip.p99Ms() * 1000);
            }
            return line + "; capacity " + capacity(targetCapacity) + " target / " + capacity(generatorCapacity) + " generator ("
                    + seconds + " s calibration)";
        }

        private static String capacity(CapacityLevel level) {
            return level == null ? "not measured" : level.describe();
        }

        private static String where(String cpus) {
            return cpus.isEmpty() ? "not pinned" : (cpus.matches("\\d+") ? "CPU " : "CPUs ") + cpus;
        }
    }

    private static Process start(RolePlacement placement, JavaCommand command, List<Process> started) throws IOException {
        Process process = placement.start(new ProcessBuilder(command.toArgv()).redirectError(ProcessBuilder.Redirect.DISCARD))
                .process();
        started.add(process);
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
