package dev.gauntlet.runner;

/**
 * A problem the user can fix — a wrong flag value, a broken suite file, an unreachable target.
 * The CLI prints its message as one line and exits with code 2, without a stack trace, so the
 * message must say what is wrong and what to do.
 */
final class UserError extends RuntimeException {
    UserError(String message) {
        super(message, null, false, false);
    }

    UserError(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
