package dev.gauntlet.runner.execution;

import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;

import java.nio.file.Path;

/** Where a suite's loads run: a generator JVM on this machine ({@link GeneratorLauncher}) or shards in a cluster. */
public interface SuiteGenerator {

    /**
     * Runs one load into {@code runDir} and returns its summary; a load that cannot run or fails is a
     * {@link dev.gauntlet.runner.base.UserError}, whatever it measured kept in {@code runDir}.
     *
     * @param adminToken the token of the target at the spec's admin URL, which the generator shows to reset its
     *                   counts; never written into the run directory
     */
    RunSummary run(LoadSpec spec, String adminToken, Path runDir);
}
