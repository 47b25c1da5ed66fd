package dev.gauntlet.runner;

import dev.gauntlet.api.TargetCatalogue;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code gauntlet run}: a suite, its progress, its table and its results directory. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run a benchmark suite: every target × scenario × repetition, each target and generator in its own JVM.",
        footer = {"", "Examples:",
                "  ./gauntlet run                            the quick suite (about 2 minutes)",
                "  ./gauntlet run --targets dummy,netty-event-loop",
                "  ./gauntlet run --suite my.yaml --results /tmp/results",
                "  ./gauntlet run --targets dummy --no-calibration",
                "  ./gauntlet run --targets dummy --network netns",
                "      the target behind a veth pair in its own network namespace (root)",
                "  ./gauntlet run --suite limited.yaml",
                "      cgroups per role (root, cgroup v1), where limited.yaml has",
                "      resources: { target: { cpus: \"0\", cpuQuota: 0.5, memory: 512m },",
                "                   generator: { cpus: \"1\" } }",
                "",
                "Each run directory holds target.jfr and generator.jfr, both JVMs' JFR",
                "recordings; summary.json's 'jvm' has their GC pauses, heap, threads, CPU."})
final class RunCommand implements Callable<Integer> {

    @Option(names = "--suite", paramLabel = "NAME|FILE", description = "a built-in suite (quick) or a YAML file (default: quick)")
    String suiteName = "quick";

    @Option(names = "--targets", split = ",", paramLabel = "NAME[,NAME...]",
            description = "run these targets instead of the suite's (names from ./gauntlet targets)")
    List<String> targets;

    @Option(names = "--results", paramLabel = "DIR", description = "where results directories go (default: results)")
    Path resultsRoot = Path.of("results");

    @Option(names = "--calibration-seconds", paramLabel = "S",
            description = "measure the platform's noise floor for S seconds before the suite (default: 10, at most 30)")
    long calibrationSeconds = PlatformCalibration.DEFAULT_DURATION.toSeconds();

    @Option(names = "--no-calibration", description = "skip the platform calibration (suite.json then says so)")
    boolean noCalibration;

    @Option(names = "--network", paramLabel = "MODE", converter = NetworkConverter.class,
            description = "loopback, or netns: the target in its own network namespace behind a veth pair (needs root; default: loopback)")
    Isolation.Network network = Isolation.Network.LOOPBACK;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        GauntletHome home = GauntletHome.fromSystemProperty();
        Suite suite = SuiteLoader.load(suiteName);
        if (targets != null) {
            suite = suite.withTargets(targets);
        }
        TargetCatalogue catalogue = TargetCatalogue.builtIn();
        suite.targets().forEach(name -> new TargetLauncher(home, catalogue, RolePlacement.unplaced("target"), List.of()).entry(name));
        try (Isolation isolation = Isolation.plan(suite.resources(), network)) {
            return run(home, catalogue, suite, isolation);
        }
    }

    private int run(GauntletHome home, TargetCatalogue catalogue, Suite suite, Isolation isolation) {
        isolation.notes().forEach(note -> System.err.println("gauntlet: isolation: " + note));
        TargetLauncher targetLauncher = new TargetLauncher(home, catalogue, isolation.target(), suite.jvm().target());
        GeneratorLauncher generator = new GeneratorLauncher(home, isolation.generator(), suite.jvm().generator());

        Object platform = noCalibration ? Map.of("skipped", "--no-calibration") : calibrate(home, isolation);
        ResultsStore store = ResultsStore.create(resultsRoot, suite, Environment.capture(home, isolation), platform);
        PrintWriter out = spec.commandLine().getOut();
        System.err.printf("gauntlet: suite %s, %d targets × %d scenarios × %d, CPUs %s; results in %s%n", suite.name(),
                suite.targets().size(), suite.scenarios().size(), suite.repetitions(), isolation.summary(), store.dir());
        List<String> failures = new SuiteRunner(targetLauncher, generator, store, System.err).run(suite);

        out.println();
        out.print(ResultsTable.render(store.rows()));
        out.println();
        out.println("Results: " + store.dir());
        out.flush();
        if (!failures.isEmpty()) {
            throw new UserError(failures.size() + " run(s) failed, the rest is in " + store.dir() + "; first: " + failures.getFirst());
        }
        return 0;
    }

    /** The platform's noise floor, or, when it could not be measured, why: the suite runs either way. */
    private Object calibrate(GauntletHome home, Isolation isolation) {
        if (calibrationSeconds < 1 || calibrationSeconds > PlatformCalibration.MAX_DURATION.toSeconds()) {
            throw new UserError("--calibration-seconds must be 1 to " + PlatformCalibration.MAX_DURATION.toSeconds()
                    + ", got " + calibrationSeconds + " (or skip it with --no-calibration)");
        }
        System.err.printf("gauntlet: measuring the platform's noise floor for %d s (skip it with --no-calibration) ...%n",
                calibrationSeconds);
        try {
            PlatformCalibration.PlatformFloor floor = new PlatformCalibration(home, isolation.target(), isolation.generator())
                    .measure(Duration.ofSeconds(calibrationSeconds));
            System.err.println(floor.describe());
            return floor;
        } catch (UserError e) {
            System.err.println("platform: not calibrated: " + e.getMessage());
            return Map.of("failed", e.getMessage());
        }
    }

    /** {@code --network loopback|netns}, case as the user likes; anything else names the choices. */
    static final class NetworkConverter implements CommandLine.ITypeConverter<Isolation.Network> {
        @Override
        public Isolation.Network convert(String value) {
            try {
                return Isolation.Network.valueOf(value.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a network mode: loopback or netns");
            }
        }
    }
}
