package dev.gauntlet.runner;

import dev.gauntlet.runner.base.GauntletHome;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./gauntlet} as a user runs it, in its own process, with the artifacts as built (for tests):
 *
 * <pre>{@code
 * GauntletCli.Finished report = GauntletCli.run(Duration.ofSeconds(60), "report", dir.toString());
 * assertThat(report.exitCode()).isZero();
 * }</pre>
 */
public final class GauntletCli {
    private GauntletCli() {
    }

    /** What a finished {@code ./gauntlet} printed, line by line, and its exit code. */
    public record Finished(int exitCode, List<String> stdout, List<String> stderr) {
    }

    /**
     * {@code ./gauntlet args} to start, with the default action for SIGHUP, SIGINT and SIGTERM (a build tool may
     * start tests with them ignored, and a child inherits that), its output piped unless the caller redirects it.
     */
    public static ProcessBuilder command(String... args) {
        Path home = GauntletHome.fromSystemProperty().root();
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=HUP,INT,TERM", home.resolve("gauntlet").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("GAUNTLET_NO_BUILD", "1");
        return builder;
    }

    /** Runs {@code ./gauntlet args} to its end, which must come within {@code timeout}. */
    public static Finished run(Duration timeout, String... args) throws IOException, InterruptedException {
        return run(timeout, Map.of(), args);
    }

    /** Runs {@code ./gauntlet args} with {@code environment} added to this JVM's, to its end within {@code timeout}. */
    public static Finished run(Duration timeout, Map<String, String> environment, String... args)
            throws IOException, InterruptedException {
        ProcessBuilder builder = command(args);
        builder.environment().putAll(environment);
        Process process = builder.start();
        process.getOutputStream().close();
        CompletableFuture<String> stdout = readAll(process, true);
        CompletableFuture<String> stderr = readAll(process, false);
        try {
            assertThat(process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)).as("./gauntlet %s ended", String.join(" ", args)).isTrue();
        } finally {
            // Only one still running: destroying an ended process closes its pipes under the readers still draining them.
            if (process.isAlive()) {
                process.destroyForcibly();
            }
        }
        return new Finished(process.exitValue(), stdout.join().lines().toList(), stderr.join().lines().toList());
    }

    private static CompletableFuture<String> readAll(Process process, boolean stdout) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new String((stdout ? process.getInputStream() : process.getErrorStream()).readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
