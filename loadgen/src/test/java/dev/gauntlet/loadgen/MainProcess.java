package dev.gauntlet.loadgen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A main class of the test's classpath run as a process of its own, as {@code ./gauntlet} and the runner start one. */
final class MainProcess {
    /** How long a run may take before the test fails. */
    private static final long TIMEOUT_SEC = 30;

    /** How the process ended: its exit code and all it wrote to stderr. */
    record Exited(int exitCode, String stderr) {
    }

    private MainProcess() {
    }

    /** The command that starts {@code main} in this test's JVM binary with {@code jvmOptions}, then {@code args}. */
    static List<String> command(List<String> jvmOptions, Class<?> main, List<String> args) {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(args);
        return command;
    }

    /** Runs {@code main} to its end, its stdout discarded; fails the test if it takes longer than 30 s. */
    static Exited run(List<String> jvmOptions, Class<?> main, String... args) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command(jvmOptions, main, List.of(args)))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(TIMEOUT_SEC, TimeUnit.SECONDS)).as("%s ended", main.getSimpleName()).isTrue();
            return new Exited(process.exitValue(), stderr);
        } finally {
            process.destroyForcibly();
        }
    }
}
