package dev.gauntlet.loadgen.failure;

/**
 * A load that cannot run as asked: bad input, an unreachable target, limits that make it
 * impossible. The message is one line meant for the user, with the numbers and the way out;
 * a generator process ends with it and its exit code (2 unless said otherwise).
 */
public final class GeneratorException extends RuntimeException {
    private final int exitCode;

    public GeneratorException(String message) {
        this(message, 2);
    }

    public GeneratorException(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
