package dev.gauntlet.runner.kubernetes;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.failure.GeneratorException;
import dev.gauntlet.loadgen.split.ShardedLoad;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.execution.SuiteGenerator;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A suite's loads as the Indexed Job of {@code load --kubernetes} ({@link KubernetesLoad}), one Job per run: a
 * Job's pods end with their run, which is what hands their results and recordings over (a kept Job would need a
 * protocol of its own to run several loads), and a shard that failed in one run is not carried into the next.
 * The run directory gets what a local generator writes: {@code spec.json}, {@code generator.log} (the Job's
 * progress; each shard's own output is its {@code p<i>/shard.log}), the merged results and {@code generator.jfr}.
 */
final class ShardedGenerator implements SuiteGenerator {
    private final ShardedLoad load;
    private final ShardedLoad.Placement placement;

    ShardedGenerator(ShardedLoad load, ShardedLoad.Placement placement) {
        this.load = load;
        this.placement = placement;
    }

    @Override
    public RunSummary run(LoadSpec spec, String adminToken, Path runDir) {
        RunDirectory files = new RunDirectory(runDir);
        try {
            Files.createDirectories(runDir);
            Json.json().writeValue(files.spec().toFile(), spec);
        } catch (IOException e) {
            throw new UserError("cannot write the run's spec into " + runDir + ": " + e.getMessage());
        }
        try (PrintStream log = new PrintStream(Files.newOutputStream(files.generatorLog()), true, StandardCharsets.UTF_8)) {
            return load.run(spec, placement, adminToken, runDir, log);
        } catch (GeneratorException e) {
            throw new UserError(e.getMessage() + " (see " + files.generatorLog() + ")");
        } catch (IOException e) {
            throw new UserError("cannot write " + files.generatorLog() + ": " + e.getMessage());
        }
    }
}
