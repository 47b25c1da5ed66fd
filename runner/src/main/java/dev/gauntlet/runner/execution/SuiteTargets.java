package dev.gauntlet.runner.execution;

import dev.gauntlet.api.TargetCatalogue.TargetEntry;

import java.nio.file.Path;

/** Where a suite's targets start: JVMs on this machine ({@link TargetLauncher}) or pods of a cluster. */
public interface SuiteTargets {

    /** The catalogue's entry of {@code name}; an unknown name is a {@link dev.gauntlet.runner.UserError}. */
    TargetEntry entry(String name);

    /**
     * Starts target {@code name} and returns it once it answers; a target that does not start is a
     * {@link dev.gauntlet.runner.UserError}. Its output goes to {@code log}.
     */
    SuiteTarget start(String name, Path log);
}
