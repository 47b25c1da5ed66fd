package dev.gauntlet.runner;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** The gauntlet command line run in this JVM as a user runs it ({@link Main#execute}), its stdout and stderr captured. */
public final class Cli {
    private Cli() {
    }

    public record Result(int code, String out, String err) {
    }

    /** Runs the CLI with {@code args}; what it printed is also passed on to this JVM's own stdout and stderr. */
    public static synchronized Result cli(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
        try {
            int code = Main.execute(args);
            return new Result(code, outBytes.toString(StandardCharsets.UTF_8), errBytes.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
            out.print(outBytes.toString(StandardCharsets.UTF_8));
            err.print(errBytes.toString(StandardCharsets.UTF_8));
        }
    }
}
