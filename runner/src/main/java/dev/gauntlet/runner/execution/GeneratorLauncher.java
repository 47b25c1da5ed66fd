package dev.gauntlet.runner.execution;

import dev.gauntlet.api.AdminToken;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.split.GeneratorProcess;
import dev.gauntlet.loadgen.split.JavaCommand;
import dev.gauntlet.loadgen.warmup.JitWarmup;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.isolation.RolePlacement;
import dev.gauntlet.runner.metrics.JfrRecording;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs one load as a separate generator JVM ({@link GeneratorProcess}): writes {@code spec.json} into the run directory,
 * starts {@code GeneratorMain} in the generator's placement with a JFR recording written to
 * {@code generator.jfr} at its exit (with the client library's module on its classpath when the spec names a client), waits for it within the spec's hard cap, and reads back the
 * {@code summary.json} it wrote.
 */
public final class GeneratorLauncher implements SuiteGenerator {
    static final String MAIN_CLASS = "dev.gauntlet.loadgen.GeneratorMain";
    static final String MODULE = "loadgen";
    /** Beyond the spec's own hard cap: JVM start and writing the files. */
    private static final long EXIT_GRACE_MS = 30_000;
    /** How long a generator told to stop by a stopping runner may take to exit (its JFR recording is written then). */
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);

    private final GauntletHome home;
    private final RolePlacement placement;
    private final List<String> jvmOptions;

    public GeneratorLauncher(GauntletHome home, RolePlacement placement, List<String> jvmOptions) {
        this.home = home;
        this.placement = placement;
        this.jvmOptions = List.copyOf(jvmOptions);
    }

    /**
     * @param adminToken the token of the target at the spec's admin URL, which the generator shows to reset its
     *                   counts; in the generator's environment, never in {@code spec.json} (a results directory
     *                   gets shared), nor on its command line
     */
    @Override
    public RunSummary run(LoadSpec spec, String adminToken, Path runDir) {
        Path log = new RunDirectory(runDir).generatorLog();
        GeneratorProcess generator;
        try {
            Files.createDirectories(runDir);
            Path specFile = new RunDirectory(runDir).spec();
            Json.json().writeValue(specFile.toFile(), spec);
            List<String> options = new ArrayList<>(jvmOptions);
            options.addAll(JfrRecording.toFileAtExit(new RunDirectory(runDir).generatorJfr()));
            options.addAll(ClientModules.jvmOptions(spec.client()));
            JavaCommand command = new JavaCommand(options, ClientModules.generatorClasspath(home, spec.client()), MAIN_CLASS,
                    List.of("--spec", specFile.toString(), "--output", runDir.toString()));
            generator = GeneratorProcess.start(command, log, Map.of(AdminToken.VARIABLE, adminToken),
                    builder -> placement.start(builder).process());
        } catch (IOException e) {
            throw new UserError("the generator could not be started in " + runDir + ": " + e.getMessage());
        }
        // A runner stopped by a signal stops its generator too, rather than leave it loading a target that is gone.
        ProcessStopper stopper = ProcessStopper.atRunnerExit(generator.process(), STOP_GRACE);
        try {
            if (!generator.exitedWithin(JitWarmup.MAX_TOTAL_MS + spec.hardCapMs() + EXIT_GRACE_MS)) {
                stopper.kill(); // killed already: this only forgets the stop at the runner's exit
                throw new UserError("the generator overran its hard cap of " + spec.hardCapMs() + " ms; see " + log);
            }
            stopper.stop(); // it has exited: this only forgets the stop at the runner's exit
        } catch (InterruptedException e) {
            stopper.kill();
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while the generator was running");
        }
        int exit = generator.process().exitValue();
        if (exit != 0) {
            throw new UserError("the generator failed (exit " + exit + "): " + generator.lastLine());
        }
        try {
            return Json.json().readValue(new RunDirectory(runDir).summary().toFile(), RunSummary.class);
        } catch (IOException e) {
            throw new UserError("the generator wrote no readable summary.json in " + runDir + ": " + e.getMessage());
        }
    }
}
