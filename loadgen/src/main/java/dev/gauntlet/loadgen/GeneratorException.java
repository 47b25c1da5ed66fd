package dev.gauntlet.loadgen;

/**
 * A load that cannot run as asked: bad input, an unreachable target, limits that make it
 * impossible. The message is one line meant for the user, with the numbers and the way out.
 */
public final class GeneratorException extends RuntimeException {
    public GeneratorException(String message) {
        super(message);
    }
}
