package dev.gauntlet.runner.execution;

import dev.gauntlet.hiccup.ParentWatch;
import dev.gauntlet.runner.isolation.RolePlacement;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of one child JVM: the same JDK as the runner, its own classpath and options,
 * and this JVM named as its parent, so that it ends when this JVM ends ({@link ParentWatch}). Where
 * it runs is its role's {@link RolePlacement}.
 */
public record JavaCommand(List<String> jvmOptions, String classpath, String mainClass, List<String> args) {

    public List<String> toArgv() {
        List<String> argv = new ArrayList<>();
        argv.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        argv.add(ParentWatch.jvmOption());
        argv.addAll(jvmOptions);
        argv.add("-cp");
        argv.add(classpath);
        argv.add(mainClass);
        argv.addAll(args);
        return argv;
    }
}
