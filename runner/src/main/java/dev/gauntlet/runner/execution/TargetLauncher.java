package dev.gauntlet.runner.execution;

import dev.gauntlet.api.AdminToken;
import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.api.TargetCatalogue.TargetEntry;
import dev.gauntlet.api.TargetCatalogue.Technology;
import dev.gauntlet.loadgen.split.JavaCommand;
import dev.gauntlet.runner.GauntletHome;
import dev.gauntlet.runner.UserError;
import dev.gauntlet.runner.isolation.RolePlacement;
import dev.gauntlet.runner.metrics.JfrRecording;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts catalogue targets as their own JVMs: the technology module's classpath, the role's JVM
 * options, its placement ({@link RolePlacement}), and {@code TargetMain} with the target's server class.
 *
 * <pre>{@code
 * TargetLauncher launcher = new TargetLauncher(home, catalogue, isolation.target(), List.of("-Xmx1g"));
 * try (TargetProcess target = launcher.start("jetty-handler-sync", List.of(), logFile)) { ... }
 * }</pre>
 */
public final class TargetLauncher implements SuiteTargets {
    public static final String MAIN_CLASS = "dev.gauntlet.targets.TargetMain";
    public static final String HOST = "127.0.0.1";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(20);
    /**
     * Before the role's own options, so a suite can still override them. A target whose heap is
     * exhausted has lost threads at random (its admin endpoint among them) and cannot even start
     * the thread that would run its SIGTERM hook: it exits at once (code 3), so the run records a
     * dead target instead of measuring a broken one.
     */
    public static final List<String> ALWAYS_JVM_OPTIONS = List.of("-XX:+ExitOnOutOfMemoryError");

    private final GauntletHome home;
    private final TargetCatalogue catalogue;
    private final RolePlacement placement;
    private final List<String> jvmOptions;
    /** One per launcher, so one per run: the targets it starts reset their counts only for the runner and its generators. */
    private final String adminToken = AdminToken.fresh();

    public TargetLauncher(GauntletHome home, TargetCatalogue catalogue, RolePlacement placement, List<String> jvmOptions) {
        this.home = home;
        this.catalogue = catalogue;
        this.placement = placement;
        List<String> options = new ArrayList<>(ALWAYS_JVM_OPTIONS);
        // One recording across the target's runs; the runner copies each run's window out of it.
        options.addAll(JfrRecording.continuous());
        options.addAll(jvmOptions);
        this.jvmOptions = List.copyOf(options);
    }

    public TargetEntry entry(String name) {
        return catalogue.target(name).orElseThrow(() -> new UserError("unknown target '" + name
                + "': ./gauntlet targets lists the names"));
    }

    /**
     * The target's JVM command: its technology's JVM options, then the role's; {@code extraFlags}
     * are TargetMain flags such as {@code --workers 200}.
     */
    public JavaCommand command(TargetEntry entry, List<String> extraFlags) {
        Technology technology = catalogue.technology(entry.technology());
        List<String> options = new ArrayList<>(technology.jvmOptions());
        options.addAll(jvmOptions);
        // The admin port where the runner and the generator reach it: loopback, or the veth address in a
        // namespace, whose only peer is this host.
        List<String> args = new ArrayList<>(List.of("--server", entry.serverClass(), "--bind", placement.host(),
                "--admin-bind", placement.host()));
        args.addAll(extraFlags);
        return new JavaCommand(options, home.classpathOf(technology.module()), MAIN_CLASS, args);
    }

    @Override
    public TargetProcess start(String name, Path log) {
        return start(name, List.of(), log);
    }

    public TargetProcess start(String name, List<String> extraFlags, Path log) {
        TargetEntry entry = entry(name);
        return TargetProcess.start(command(entry, extraFlags), adminToken, placement, entry, log, READY_TIMEOUT);
    }
}
