package dev.gauntlet.runner.execution;

import java.nio.file.Path;

/** Where a suite's targets start: JVMs on this machine ({@link TargetLauncher}) or pods of a cluster. */
public interface SuiteTargets {

    /**
     * Starts target {@code name} and returns it once it answers; a target that does not start is a
     * {@link dev.gauntlet.runner.base.UserError}. Its output goes to {@code log}.
     */
    SuiteTarget start(String name, Path log);
}
