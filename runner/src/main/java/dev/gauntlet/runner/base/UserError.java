package dev.gauntlet.runner.base;

/**
 * A problem the user can fix — a wrong flag value, a broken suite file, an unreachable target.
 * The CLI prints its message as one line and exits with code 2, without a stack trace, so the
 * message must say what is wrong and what to do.
 */
public final class UserError extends RuntimeException {
    private final String rowNote;

    public UserError(String message) {
        this(message, (String) null);
    }

    /** @param rowNote the few words a results row shows for it, such as {@code killed by its 256 MB memory limit} */
    public UserError(String message, String rowNote) {
        super(message, null, false, false);
        this.rowNote = rowNote;
    }

    public UserError(String message, Throwable cause) {
        super(message, cause, false, false);
        this.rowNote = null;
    }

    /** The short reason for a results row; null when the message alone says it. */
    public String rowNote() {
        return rowNote;
    }
}
