package dev.gauntlet.hiccup;

import javax.management.JMException;
import javax.management.ObjectName;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * What this JVM's JIT compilers are doing: their time so far and how many methods are being
 * compiled or wait to be. The queue is what tells a JIT that has settled: on a CPU shared with a
 * loaded server the compiler threads get a small share, so hundreds of methods can wait for
 * seconds while the compilers' time hardly moves (spring-mvc-sync on one CPU under a closed loop
 * of 100: 700 queued for 20 s, its compile time still for 3 s of them). Both sides measure it:
 * a target serves it on its admin port ({@code GET /jit}), the generator reads its own.
 *
 * <pre>{@code
 * JitActivity.Snapshot jit = JitActivity.now();    // e.g. compileMs 26884, queued 699
 * }</pre>
 */
public final class JitActivity {
    private static final String DIAGNOSTIC_COMMAND = "com.sun.management:type=DiagnosticCommand";

    private JitActivity() {
    }

    /**
     * @param compileMs the compilers' time since the JVM started (elapsed per compilation); -1 where not measured
     * @param queued    methods being compiled or waiting in a compile queue; -1 where the JVM does not say
     */
    public record Snapshot(long compileMs, int queued) {
        public String toJson() {
            return "{\"compileMs\":" + compileMs + ",\"queued\":" + queued + "}";
        }
    }

    public static Snapshot now() {
        CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        long compileMs = compiler != null && compiler.isCompilationTimeMonitoringSupported()
                ? compiler.getTotalCompilationTime() : -1;
        return new Snapshot(compileMs, queued());
    }

    /** The lines of {@code jcmd PID Compiler.queue} that are tasks: each begins with its compile id. */
    private static int queued() {
        try {
            Object listing = ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName(DIAGNOSTIC_COMMAND),
                    "compilerQueue", new Object[] {new String[0]}, new String[] {String[].class.getName()});
            return (int) ((String) listing).lines().filter(line -> !line.isBlank() && Character.isDigit(line.strip().charAt(0)))
                    .count();
        } catch (JMException | RuntimeException notHotSpot) {
            return -1;
        }
    }
}
