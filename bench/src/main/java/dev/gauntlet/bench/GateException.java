package dev.gauntlet.bench;

/** A case the gate could not measure, with the one line that says why: its row fails. */
final class GateException extends RuntimeException {
    GateException(String message) {
        super(message, null, false, false);
    }
}
