package dev.gauntlet.runner.execution;

import dev.gauntlet.api.AdminToken;
import dev.gauntlet.api.Protocol;
import dev.gauntlet.api.ProtocolTarget;
import dev.gauntlet.api.TargetCatalogue.TargetEntry;
import dev.gauntlet.api.TargetCatalogue.Technology;
import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.loadgen.split.JavaCommand;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.isolation.RolePlacement;
import dev.gauntlet.runner.metrics.JfrRecording;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

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
    /** The options before each target's own: always, then the continuous JFR recording. */
    private final List<String> launcherOptions;
    /** Each target's own options, by the name it is started with. */
    private final Function<String, List<String>> jvmOptionsOf;
    /** One per launcher, so one per run: the targets it starts reset their counts only for the runner and its generators. */
    private final String adminToken = AdminToken.fresh();

    /** A launcher that starts every target with {@code jvmOptions}. */
    public TargetLauncher(GauntletHome home, TargetCatalogue catalogue, RolePlacement placement, List<String> jvmOptions) {
        this(home, catalogue, placement, name -> jvmOptions);
    }

    /** A launcher that starts each target with its own options: a suite's {@code JvmOptions::forTarget}. */
    public TargetLauncher(GauntletHome home, TargetCatalogue catalogue, RolePlacement placement,
                          Function<String, List<String>> jvmOptionsOf) {
        this.home = home;
        this.catalogue = catalogue;
        this.placement = placement;
        List<String> options = new ArrayList<>(ALWAYS_JVM_OPTIONS);
        // One recording across the target's runs; the runner copies each run's window out of it.
        options.addAll(JfrRecording.continuous());
        this.launcherOptions = List.copyOf(options);
        this.jvmOptionsOf = jvmOptionsOf;
    }

    /** The catalogue entry of {@code NAME} or {@code NAME@PROTOCOL}, which it must serve. */
    public TargetEntry entry(String name) {
        ProtocolTarget named;
        try {
            named = ProtocolTarget.parse(name);
        } catch (IllegalArgumentException e) {
            throw new UserError("target '" + name + "': " + e.getMessage());
        }
        TargetEntry entry = catalogue.target(named.target()).orElseThrow(() -> new UserError("unknown target '"
                + named.target() + "': ./gauntlet targets lists the names"));
        if (!entry.serves(named.protocol())) {
            throw new UserError("target " + entry.name() + " does not serve " + named.protocol().label() + " (it serves "
                    + Protocol.labels(entry.protocols())
                    + "): ./gauntlet targets lists what each serves");
        }
        return entry;
    }

    /** The TargetMain flags that make a target serve {@code protocol}: TLS with a certificate made at start, HTTP/2. */
    static List<String> protocolFlags(Protocol protocol) {
        List<String> flags = new ArrayList<>();
        if (protocol.tls()) {
            flags.addAll(List.of("--tls", "self-signed"));
        }
        if (protocol.http2()) {
            flags.addAll(List.of("--http2", "true"));
        }
        if (protocol.http3()) {
            flags.addAll(List.of("--http3", "true"));
        }
        return flags;
    }

    /**
     * The JVM command of target {@code name}: its technology's JVM options, then the launcher's, then its own;
     * {@code extraFlags} are TargetMain flags such as {@code --workers 200}.
     */
    public JavaCommand command(String name, List<String> extraFlags) {
        TargetEntry entry = entry(name);
        Technology technology = catalogue.technology(entry.technology());
        List<String> options = new ArrayList<>(technology.jvmOptions());
        options.addAll(launcherOptions);
        options.addAll(jvmOptionsOf.apply(name));
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

    /** Starts {@code NAME} or {@code NAME@PROTOCOL}, serving that protocol; {@code extraFlags} are TargetMain's. */
    public TargetProcess start(String name, List<String> extraFlags, Path log) {
        Protocol protocol = ProtocolTarget.parse(name).protocol();
        List<String> flags = new ArrayList<>(protocolFlags(protocol));
        flags.addAll(extraFlags);
        return TargetProcess.start(command(name, flags), adminToken, placement, entry(name), protocol, log, READY_TIMEOUT);
    }
}
