package dev.gauntlet.loadgen.split;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One generator JVM started by this one, the way every generator JVM is started: each child of a
 * load over several processes ({@link MultiProcess}), and in the runner a suite's generator
 * ({@code GeneratorLauncher}, in the generator role's placement) and {@code load --client}
 * ({@code ClientLoad}, at the terminal).
 *
 * <pre>{@code
 * GeneratorProcess generator = GeneratorProcess.start(command, log, Map.of(), ProcessBuilder::start);
 * if (!generator.exitedWithin(deadlineMs)) {            // it was killed
 *     throw new GeneratorException("the generator overran its hard cap; see " + log);
 * }
 * if (generator.process().exitValue() != 0) {
 *     throw new GeneratorException("the generator failed: " + generator.lastLine());
 * }
 * }</pre>
 *
 * <p>The caller words its messages, decides what a failure becomes and what stops the process when
 * this JVM stops; the child itself ends with this JVM by {@link JavaCommand}'s parent watch.
 */
public final class GeneratorProcess {
    /** How long a killed process may take to be gone: SIGKILL takes far less unless the kernel is stuck. */
    private static final long KILLED_WAIT_MS = 5_000;

    /** Starts a process from its builder: {@code ProcessBuilder::start}, or the runner's placement of the role. */
    @FunctionalInterface
    public interface Starter {
        Process start(ProcessBuilder builder) throws IOException;
    }

    private final Process process;
    private final Path log;

    private GeneratorProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code command} by {@code starter}, its output and errors written to {@code log}, with
     * {@code environment} added to this JVM's.
     */
    public static GeneratorProcess start(JavaCommand command, Path log, Map<String, String> environment, Starter starter)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command.toArgv()).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        return new GeneratorProcess(starter.start(builder), log);
    }

    /**
     * Starts {@code command} on this JVM's input, output and errors: at a terminal it answers as this
     * JVM would, its lines and a Ctrl-C passing straight through. It has no log.
     */
    public static GeneratorProcess startInheritingIo(JavaCommand command) throws IOException {
        return new GeneratorProcess(new ProcessBuilder(command.toArgv()).inheritIO().start(), null);
    }

    public Process process() {
        return process;
    }

    /**
     * Waits for the process to exit, at most {@code timeoutMs}; one still running then is killed
     * (SIGKILL), waited for, and false is returned.
     */
    public boolean exitedWithin(long timeoutMs) throws InterruptedException {
        if (process.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
            return true;
        }
        process.destroyForcibly().waitFor(KILLED_WAIT_MS, TimeUnit.MILLISECONDS);
        return false;
    }

    /** For a failure's message: the last line of its log, and where the log is. */
    public String lastLine() {
        if (log == null) {
            throw new IllegalStateException("a process on this JVM's output has no log");
        }
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return lines.isEmpty() ? "no output; see " + log : lines.getLast() + " (see " + log + ")";
        } catch (IOException e) {
            return "see " + log;
        }
    }
}
