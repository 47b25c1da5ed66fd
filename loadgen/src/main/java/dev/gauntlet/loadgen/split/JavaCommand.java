package dev.gauntlet.loadgen.split;

import dev.gauntlet.hiccup.ParentWatch;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of one child JVM: the same JDK as this JVM, its own classpath and options,
 * and this JVM named as its parent, so that it ends when this JVM ends ({@link ParentWatch}); native access allowed,
 * so that a library loading its native part (Netty's epoll, BoringSSL and QUIC) does not print the JDK's four lines of
 * warning into a log or before a one-line error. Every
 * child JVM is started from one: a generator's ({@link GeneratorProcess}) and, in the runner, a
 * target's and the calibration's.
 *
 * <pre>{@code
 * List<String> argv = new JavaCommand(List.of("-Xmx1g"), classpath, "dev.gauntlet.loadgen.GeneratorMain", args).toArgv();
 * }</pre>
 */
public record JavaCommand(List<String> jvmOptions, String classpath, String mainClass, List<String> args) {
    /** Every Gauntlet JVM's, the runner's own included (the {@code gauntlet} script gives it too). */
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    public List<String> toArgv() {
        List<String> argv = new ArrayList<>();
        argv.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        argv.add(ParentWatch.jvmOption());
        argv.add(NATIVE_ACCESS);
        argv.addAll(jvmOptions);
        argv.add("-cp");
        argv.add(classpath);
        argv.add(mainClass);
        argv.addAll(args);
        return argv;
    }
}
