package dev.gauntlet.loadgen;

import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;

import java.io.PrintStream;
import java.nio.file.Path;

/** Placeholder until the split over processes lands. */
final class MultiProcess {
    private MultiProcess() {
    }

    static RunSummary run(LoadSpec spec, Path outputDir, PrintStream progress) {
        throw new GeneratorException("--processes is not supported yet");
    }
}
