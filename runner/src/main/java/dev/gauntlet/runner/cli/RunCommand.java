package dev.gauntlet.runner.cli;

import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.loadgen.EnumChoice;
import dev.gauntlet.loadgen.split.HostLimits;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.execution.ClientModules;
import dev.gauntlet.runner.execution.ForksUntilResolved;
import dev.gauntlet.runner.execution.GeneratorLauncher;
import dev.gauntlet.runner.execution.LeftoverJvms;
import dev.gauntlet.runner.execution.SuiteGenerator;
import dev.gauntlet.runner.execution.SuiteInterruption;
import dev.gauntlet.runner.execution.SuiteRunner;
import dev.gauntlet.runner.execution.SuiteTargets;
import dev.gauntlet.runner.execution.TargetLauncher;
import dev.gauntlet.runner.isolation.Isolation;
import dev.gauntlet.runner.isolation.RolePlacement;
import dev.gauntlet.runner.kubernetes.KubernetesSuite;
import dev.gauntlet.runner.metrics.PlatformCalibration;
import dev.gauntlet.runner.report.ReportWriter;
import dev.gauntlet.runner.results.ClientTable;
import dev.gauntlet.runner.results.Environment;
import dev.gauntlet.runner.results.LatencyDiffTable;
import dev.gauntlet.runner.results.ProtocolTable;
import dev.gauntlet.runner.results.RankingTable;
import dev.gauntlet.runner.results.ResultsStore;
import dev.gauntlet.runner.results.ResultsTable;
import dev.gauntlet.runner.results.SweepTable;
import dev.gauntlet.runner.suite.ClusterSettings;
import dev.gauntlet.runner.suite.Placement;
import dev.gauntlet.runner.suite.RunPlan;
import dev.gauntlet.runner.suite.Suite;
import dev.gauntlet.runner.suite.SuiteLoader;
import dev.gauntlet.runner.suite.SuiteScaling;
import dev.gauntlet.runner.suite.UntilResolved;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/** {@code gauntlet run}: a suite, its progress, its table and its results directory. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run a benchmark suite: every target × scenario × repetition, each target and generator in its own JVM.",
        footer = {"", "Examples:",
                "  ./gauntlet run                            the quick suite (about 3 minutes)",
                "  ./gauntlet suites                         the built-in suites and their times",
                "  ./gauntlet run --suite server             the 2016 study's four cases (about 1 h 30 min)",
                "  ./gauntlet run --suite server --targets all --repetitions 5",
                "  ./gauntlet run --targets dummy,netty-event-loop --forks 5",
                "      each target started afresh 5 times, in turn: intervals over forks",
                "  ./gauntlet run --suite latency-diff --until-resolved --max-forks 6",
                "      forks added to the targets not yet told apart from dummy, 6 at most",
                "  ./gauntlet run --suite server --scale 1   rates as the original, unscaled",
                "  ./gauntlet run --suite server --profile full,parallel-gc",
                "      2016's window lengths, on 2016's JVM settings (./gauntlet suites lists the profiles)",
                "  ./gauntlet run --resume results/server-20261123-180000",
                "      continue an interrupted suite: measured runs are kept, the rest run on the same",
                "      setup (JDK, CPUs, placement, --network) and commit as they began, or it refuses",
                "  ./gauntlet run --targets dummy,netty-event-loop",
                "  ./gauntlet run --suite my.yaml --results /tmp/results",
                "  ./gauntlet run --targets dummy --no-calibration",
                "  ./gauntlet run --targets dummy --network netns",
                "      the target behind a veth pair in its own network namespace (root)",
                "  ./gauntlet run --suite server --kubernetes --image registry.example/gauntlet:0.1.0 --shards 2",
                "      in the kubeconfig's cluster: targets as pods, loads as Indexed Jobs (docs/distributed.md)",
                "  ./gauntlet run --suite limited.yaml",
                "      cgroups per role (root, cgroup v1), where limited.yaml has",
                "      resources: { target: { cpus: \"0\", cpuQuota: 0.5, memory: 512m },",
                "                   generator: { cpus: \"1\" } }",
                "",
                "Each run directory holds target.jfr and generator.jfr, both JVMs' JFR",
                "recordings; jvm.json beside them has their GC pauses, heap, threads, CPU."})
final class RunCommand implements Callable<Integer> {
    /** The shell's status for a process ended by SIGINT; the JVM, exiting by the signal, ends with its own anyway. */
    private static final int INTERRUPTED = 130;
    private static final double MAX_SCALE = 100;

    @Option(names = "--suite", paramLabel = "NAME|FILE",
            description = "a built-in suite (./gauntlet suites lists them) or a YAML file (default: quick)")
    String suiteName = "quick";

    @Option(names = "--targets", split = ",", paramLabel = "NAME[,NAME...]|all",
            description = "run these targets instead of the suite's (names from ./gauntlet targets), or all of them")
    List<String> targets;

    @Option(names = "--clients", split = ",", paramLabel = "NAME[,NAME...]",
            description = "run every scenario once per client library engine (names from ./gauntlet clients) instead "
                    + "of the suite's clients or the built-in engine")
    List<String> clients;

    @Option(names = "--forks", paramLabel = "N",
            description = "start each target afresh N times, in turn, instead of the suite's count: the samples an "
                    + "interval is made of")
    Integer forks;

    @Option(names = "--until-resolved",
            description = "after the forks, add forks of the targets whose ranked pairs are not resolved until each is, "
                    + "or --max-forks or --max-minutes is reached (the suite's untilResolved, else 10 forks, 60 min)")
    boolean untilResolved;

    @Option(names = "--max-forks", paramLabel = "N", description = "with --until-resolved: the most forks of a target")
    Integer maxForks;

    @Option(names = "--max-minutes", paramLabel = "M",
            description = "with --until-resolved: begin no fork once the suite has run this long")
    Integer maxMinutes;

    @Option(names = "--repetitions", paramLabel = "N",
            description = "run each scenario N times in each fork instead of the suite's count")
    Integer repetitions;

    @Option(names = "--profile", paramLabel = "NAME", split = ",",
            description = "lay the suite's profile NAME over it (several in order: --profile full,parallel-gc); "
                    + "./gauntlet suites lists each suite's")
    List<String> profiles = List.of();

    @Option(names = "--scale", paramLabel = "F",
            description = "multiply open-loop rates by F instead of the suite's rule (the server suite: target CPUs ÷ 2)")
    Double scale;

    @Option(names = "--resume", paramLabel = "DIR",
            description = "continue the interrupted suite in results directory DIR: its measured runs are kept, the rest"
                    + " run, over its --network; refused while another run uses DIR, and on another JDK, machine or"
                    + " placement than it began with")
    Path resume;

    @Option(names = "--allow-commit-change",
            description = "let --resume measure at another commit (or other uncommitted changes) than DIR began with;"
                    + " the rows measured then say their commit, and suite.json lists each resume's")
    boolean allowCommitChange;

    @Option(names = "--results", paramLabel = "DIR", description = "where results directories go (default: results)")
    Path resultsRoot = Path.of("results");

    @Option(names = "--calibration-seconds", paramLabel = "S",
            description = "measure the platform's noise floor for S seconds before the suite (default: 10, at most 30)")
    long calibrationSeconds = PlatformCalibration.DEFAULT_DURATION.toSeconds();

    @Option(names = "--no-calibration", description = "skip the platform calibration (suite.json then says so)")
    boolean noCalibration;

    @Option(names = "--network", paramLabel = "MODE", converter = NetworkChoice.class,
            description = "loopback, or netns: the target in its own network namespace behind a veth pair (needs root; default: loopback)")
    Isolation.Network network = Isolation.Network.LOOPBACK;

    @Option(names = "--kubernetes",
            description = "run the suite in the kubeconfig's cluster: each target a pod on a node of its own, each load an"
                    + " Indexed Job of shards on others (as placement: kubernetes in a suite file; docs/distributed.md)")
    boolean kubernetes;

    @Option(names = "--namespace", paramLabel = "NS",
            description = "with --kubernetes: the namespace (default: the suite's kubernetes.namespace, else the kubeconfig's)")
    String namespace;

    @Option(names = "--image", paramLabel = "IMAGE",
            description = "with --kubernetes: the image with a JDK 25 and the built modules (default: the suite's, else "
                    + ClusterSettings.DEFAULT_IMAGE + ")")
    String image;

    @Option(names = "--shards", paramLabel = "N",
            description = "with --kubernetes: generator pods per load, one per load node (default: the suite's, else "
                    + ClusterSettings.DEFAULT_SHARDS + ")")
    Integer shards;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        GauntletHome home = GauntletHome.fromSystemProperty();
        TargetCatalogue catalogue = TargetCatalogue.builtIn();
        if (allowCommitChange && resume == null) {
            throw new UserError("--allow-commit-change goes with --resume DIR: a new suite is measured at one commit");
        }
        ResultsStore resumed = resume == null ? null : reopen();
        try (resumed) {
            Suite suite = resumed != null ? resumed.suite() : chosenSuite(catalogue);
            suite.targets().forEach(name -> new TargetLauncher(home, catalogue, RolePlacement.unplaced("target"), List.of()).entry(name));
            if (suite.placement() == Placement.KUBERNETES) {
                return runInCluster(home, catalogue, suite, resumed);
            }
            try (Isolation isolation = Isolation.plan(suite.resources(), network)) {
                LeftoverJvms.refuseOn(isolation, catalogue);
                isolation.notes().forEach(note -> System.err.println("gauntlet: isolation: " + note));
                TargetLauncher targetLauncher = new TargetLauncher(home, catalogue, isolation.target(), suite.jvm()::forTarget);
                GeneratorLauncher generator = new GeneratorLauncher(home, isolation.generator(), suite.jvm().generator());
                return run(suite, new Site(targetLauncher, generator, isolation.target().cpuShare(),
                        Environment.capture(home, isolation.describe()), isolation.summary(),
                        () -> calibrate(home, isolation)), resumed);
            }
        }
    }

    /**
     * A suite in the kubeconfig's cluster: its pods and Jobs live no longer than the suite may run at most (twice its
     * estimate, and an hour for the cluster's own starts), should the runner be killed before it deletes them.
     */
    private int runInCluster(GauntletHome home, TargetCatalogue catalogue, Suite suite, ResultsStore resumed) {
        if (spec.commandLine().getParseResult().hasMatchedOption("--network")) {
            throw new UserError("--network places a target on this machine: a suite in a cluster uses the nodes' network;"
                    + " drop --network");
        }
        Duration lifetime = RunPlan.of(suite.withClientScenarios()).estimateAtMost().multipliedBy(2).plusHours(1);
        try (KubernetesSuite cluster = KubernetesSuite.open(home, catalogue, suite, lifetime, System.err)) {
            return run(suite, new Site(cluster.targets(), cluster.generator(), cluster.targetCpus(),
                    Environment.capture(home, cluster.describe()), cluster.summary(),
                    () -> cluster.calibrate(Duration.ofSeconds(checkedCalibrationSeconds()), System.err)), resumed);
        }
    }

    /**
     * Where a suite runs: how its targets and loads start, the CPUs a target gets (the scaling rule's), the
     * environment it is recorded in, a few words for the header, and its calibration.
     */
    private record Site(SuiteTargets targets, SuiteGenerator generator, double targetCpus, Environment environment,
                        String summary, Supplier<Object> calibration) {
    }

    /** The suite as named, with the targets, repetitions and placement the options ask for. */
    private Suite chosenSuite(TargetCatalogue catalogue) {
        Suite suite = SuiteLoader.load(suiteName, profiles);
        Map<String, String> offered = profiles.isEmpty() ? Map.of() : SuiteLoader.profilesOf(suiteName);
        profiles.forEach(name -> System.err.println("gauntlet: profile " + name + ": " + offered.get(name)));
        if (kubernetes) {
            suite = suite.inCluster(suite.placement() == Placement.KUBERNETES ? suite.kubernetes() : ClusterSettings.DEFAULTS);
        }
        if (suite.placement() == Placement.KUBERNETES) {
            ClusterSettings settings = suite.kubernetes();
            try {
                settings = namespace == null ? settings : settings.withNamespace(namespace);
                settings = image == null ? settings : settings.withImage(image);
                settings = shards == null ? settings : settings.withShards(shards);
            } catch (IllegalArgumentException e) {
                // The settings name their field as a suite file spells it; the options are named as the fields.
                throw new UserError(e.getMessage().replaceFirst("^kubernetes\\.", "--"));
            }
            suite = suite.inCluster(settings);
        } else {
            for (String option : List.of("--namespace", "--image", "--shards")) {
                if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
                    throw new UserError(option + " says how a suite uses a cluster: add --kubernetes, or drop " + option);
                }
            }
        }
        if (targets != null) {
            suite = suite.withTargets(targets);
        }
        suite.protocolsNotServed(catalogue).forEach(note -> System.err.println("gauntlet: " + note));
        suite = suite.withCatalogue(catalogue);
        if (clients != null) {
            suite = suite.withClients(clients);
        }
        ClientModules.check(suite).forEach(note -> System.err.println("gauntlet: " + note));
        if (forks != null) {
            if (forks < 1 || forks > Suite.MAX_FORKS) {
                throw new UserError("--forks must be 1 to " + Suite.MAX_FORKS + ", got " + forks);
            }
            suite = suite.withForks(forks);
        }
        if (untilResolved || maxForks != null || maxMinutes != null) {
            suite = suite.withUntilResolved(untilResolvedRule(suite.untilResolved()));
        }
        if (repetitions != null) {
            if (repetitions < 1 || repetitions > Suite.MAX_REPETITIONS) {
                throw new UserError("--repetitions must be 1 to " + Suite.MAX_REPETITIONS + ", got " + repetitions);
            }
            suite = suite.withRepetitions(repetitions);
        }
        if (scale != null && !(scale > 0 && scale <= MAX_SCALE)) {
            throw new UserError("--scale must be a factor above 0 and at most " + SuiteScaling.decimal(MAX_SCALE)
                    + ", such as 0.5 or 2, got " + SuiteScaling.decimal(scale));
        }
        return suite;
    }

    /**
     * The results directory to resume, held by this run; the suite is the one it ran, over the network it ran on, so
     * options that would change them are refused.
     */
    private ResultsStore reopen() {
        for (String option : List.of("--suite", "--profile", "--targets", "--clients", "--forks", "--repetitions", "--scale", "--results",
                "--kubernetes", "--namespace", "--image", "--shards")) {
            if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
                throw new UserError("--resume continues the suite as it was begun: drop " + option);
            }
        }
        ResultsStore store = ResultsStore.reopen(resume);
        if (store.suite().placement() == Placement.KUBERNETES) {
            return store; // in a cluster again: the nodes' network, whatever --network says (which runInCluster refuses)
        }
        try {
            Isolation.Network recorded = store.recordedNetwork();
            if (spec.commandLine().getParseResult().hasMatchedOption("--network") && network != recorded) {
                throw new UserError(resume + " was measured with --network " + recorded.name().toLowerCase(Locale.ROOT)
                        + ": --resume continues it so; drop --network " + network.name().toLowerCase(Locale.ROOT));
            }
            network = recorded;
            return store;
        } catch (UserError e) {
            store.close();
            throw e;
        }
    }

    private int run(Suite suite, Site site, ResultsStore resumed) {
        Environment environment = site.environment();
        if (resumed != null) {
            resumed.resumeOn(environment, allowCommitChange).ifPresent(System.err::println);
        }

        // A resumed suite was fitted to the machine when it began: suite.json holds it as it ran.
        SuiteScaling.Fitted fitted = resumed != null ? new SuiteScaling.Fitted(suite, 1, List.of())
                : SuiteScaling.fit(suite, site.targetCpus(), scale, HostLimits.read());
        // Fitted first, then spelled out per client: a scaling change is said once per scenario, not per client.
        fitted = new SuiteScaling.Fitted(fitted.suite().withClientScenarios(), fitted.factor(), fitted.changes());
        RunPlan plan = RunPlan.of(fitted.suite());
        if (resumed != null) {
            plan = plan.without(resumed.measuredRuns());
        }
        System.err.printf(Locale.ROOT, "gauntlet: suite %s: %d targets × %d scenarios%s × %d fork%s × %d, %d runs%s, about %s%s;"
                        + " CPUs %s%n", suite.name(), suite.targets().size(), suite.scenarios().size(),
                suite.clients().isEmpty() ? "" : " × " + suite.clients().size() + " clients", suite.forks(),
                suite.forks() == 1 ? "" : "s",
                suite.repetitions(), plan.recordedRuns(),
                resumed != null ? " left to measure" : "", plan.estimateInMinutes(), plan.atMostInMinutes(),
                site.summary());
        fitted.changes().forEach(change -> System.err.println("gauntlet: scaled: " + change));
        suite.jvm().perTarget().forEach((target, options) -> System.err.println("gauntlet: jvm: " + target + " starts with "
                + String.join(" ", options) + " (jvm.perTarget), the other targets with " + String.join(" ", suite.jvm().target())));

        ResultsStore store;
        if (resumed != null) {
            store = resumed;
            System.err.println("gauntlet: resuming " + store.dir() + " (the platform's noise floor stays the one measured"
                    + " when it began, in suite.json)");
        } else {
            Object platform = noCalibration ? Map.of("skipped", "--no-calibration") : site.calibration().get();
            store = ResultsStore.create(resultsRoot, fitted.suite(), fitted, environment, platform);
            System.err.println("gauntlet: results in " + store.dir());
        }
        try (store) {
            return measure(fitted.suite(), plan, store, site.targets(), site.generator());
        }
    }

    /**
     * Measures the plan into the store, and forks more until resolved when the suite asks; prints the suite's table
     * and writes the report.
     */
    private int measure(Suite suite, RunPlan plan, ResultsStore store, SuiteTargets targets, SuiteGenerator generator) {
        PrintWriter out = spec.commandLine().getOut();
        SuiteInterruption interruption = SuiteInterruption.armed(store.dir());
        Instant began = Instant.now();
        List<String> failures;
        try {
            SuiteRunner runner = new SuiteRunner(targets, generator, store, System.err, interruption::happened);
            failures = runner.run(plan);
            if (suite.untilResolved() != null) {
                new ForksUntilResolved(suite, suite.untilResolved(), store, System.err).run(runner, began,
                        interruption::happened);
                failures = runner.failures();
            }
        } finally {
            interruption.suiteEnded();
        }
        if (interruption.happened()) {
            return INTERRUPTED; // the JVM is exiting by a signal: the interruption's hook reports what was kept
        }

        out.println();
        out.print(switch (suite.table()) {
            case RUNS -> ResultsTable.render(store.rows());
            case SWEEP -> SweepTable.render(store.rows());
            case LATENCY_DIFF -> LatencyDiffTable.render(store.rows());
            case RANKING -> RankingTable.render(store.rows());
            case CLIENTS -> ClientTable.render(store.rows());
            case PROTOCOLS -> ProtocolTable.render(store.rows());
        });
        out.println();
        out.println("Results: " + store.dir());
        ReportWriter.tryWrite(store.dir()).ifPresent(page -> out.println("Report:  " + page));
        out.flush();
        if (!failures.isEmpty()) {
            throw new UserError(failures.size() + " run(s) failed, the rest is in " + store.dir() + "; first: " + failures.getFirst());
        }
        return 0;
    }

    /** The suite's rule to add forks until resolved, with the bounds the options give. */
    private UntilResolved untilResolvedRule(UntilResolved suites) {
        if (!untilResolved && suites == null) {
            throw new UserError("--max-forks and --max-minutes bound --until-resolved: add it, such as --until-resolved"
                    + " --max-forks 8");
        }
        UntilResolved base = suites == null ? UntilResolved.DEFAULT : suites;
        try {
            return new UntilResolved(maxForks == null ? base.maxForks() : maxForks,
                    maxMinutes == null ? base.maxMinutes() : maxMinutes);
        } catch (IllegalArgumentException e) {
            throw new UserError("--until-resolved: " + e.getMessage().replace("untilResolved.maxForks", "--max-forks")
                    .replace("untilResolved.maxMinutes", "--max-minutes"));
        }
    }

    /** The platform's noise floor, or, when it could not be measured, why: the suite runs either way. */
    private Object calibrate(GauntletHome home, Isolation isolation) {
        checkedCalibrationSeconds();
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

    private long checkedCalibrationSeconds() {
        if (calibrationSeconds < 1 || calibrationSeconds > PlatformCalibration.MAX_DURATION.toSeconds()) {
            throw new UserError("--calibration-seconds must be 1 to " + PlatformCalibration.MAX_DURATION.toSeconds()
                    + ", got " + calibrationSeconds + " (or skip it with --no-calibration)");
        }
        return calibrationSeconds;
    }

    static final class NetworkChoice extends EnumChoice<Isolation.Network> {
        NetworkChoice() {
            super(Isolation.Network.class);
        }
    }
}
