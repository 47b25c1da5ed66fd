package dev.gauntlet.runner.suite;

import dev.gauntlet.api.ClientCatalogue;
import dev.gauntlet.api.Protocol;
import dev.gauntlet.api.ProtocolTarget;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The runs of a suite in the order they happen, grouped into sessions: one session is one target
 * JVM, started before its first run and stopped after its last: one fork of that target. The suite's
 * {@link Suite.Repeat} decides the order within it; a warm-up scenario runs once per session, where
 * the first pass reaches it. A scenario run by a client library runs only against the targets whose protocol the
 * library speaks ({@code clients.yaml}: the client suite's h3 target gets the clients that speak h3); a session left
 * with nothing to record is none.
 *
 * <pre>{@code
 * RunPlan plan = RunPlan.of(suite).without(store.measuredRuns());   // what --resume still has to run
 * System.err.println(plan.recordedRuns() + " runs, about " + plan.estimate().toMinutes() + " min");
 * }</pre>
 */
public record RunPlan(List<Session> sessions) {
    /** A target JVM's start-up, READY and settings, measured at 2–4 s here; the rest is margin. */
    static final Duration TARGET_START = Duration.ofSeconds(4);
    /**
     * Around one run: a generator JVM's start-up and preflight, the requests still out when the
     * measured phase ends, the JFR dumps and reading them, the stats. Measured at 3.5–6 s a run
     * on a quiet 2-CPU machine (server suite, 2026-11-23).
     */
    static final Duration RUN_OVERHEAD = Duration.ofSeconds(5);
    /**
     * The generator warming its own JIT before a run of the built-in engine's open or closed loop
     * (loadgen's JitWarmup): 3 s at most, which most runs reach (docs/benchmarks.md).
     */
    static final Duration GENERATOR_JIT_WARMUP = Duration.ofSeconds(3);
    /**
     * What a run may take beyond its phases when its target fell behind, at most: the generator waits for the
     * requests still out when the measured phase ends (the response timeout bounds each), then the runner for
     * the target to finish them ({@code TargetDrain}'s margin, 5 s, and its one probe). An overloaded
     * server-suite overhead run took 17–42 s more than its phases here (2026-12-06); a target that keeps up
     * leaves none of it, so the estimate counts it only at most.
     */
    static final Duration FALLING_BEHIND_DRAIN = Duration.ofSeconds(6);
    /** Opening and closing held connections: 19,000 took about 6 s more than a plain run here. */
    static final int HELD_REQUESTS_PER_SECOND_OF_SETUP = 3_000;

    public RunPlan {
        sessions = List.copyOf(sessions);
    }

    /** One target JVM's share of the plan. */
    public record Session(String target, List<Run> runs) {
        public Session {
            runs = List.copyOf(runs);
        }
    }

    /** One generator run, as repetition {@code repetition} of fork {@code fork}; a warm-up is run but not recorded. */
    public record Run(Suite.Scenario scenario, int fork, int repetition) {
        public boolean recorded() {
            return !scenario.warmUp();
        }

        Key key(String target) {
            return new Key(target, scenario.name(), fork, repetition);
        }

        /** As a progress line names the run: {@code #2}, or {@code fork 3 #2} in a plan of several forks. */
        public String label(boolean forked) {
            return (forked ? "fork " + fork + " " : "") + "#" + repetition;
        }
    }

    /** What names a row of {@code results.json}. */
    public record Key(String target, String scenario, int fork, int repetition) {
    }

    /**
     * Fork by fork, every target in each (a session, a JVM of its own), so that the machine's drift over time falls on
     * every target alike; within a session the runs in the order of the suite's {@link Suite.Repeat}.
     */
    public static RunPlan of(Suite suite) {
        List<Session> sessions = new ArrayList<>();
        for (int fork = 1; fork <= suite.forks(); fork++) {
            sessions.addAll(fork(suite, fork, suite.targets()).sessions());
        }
        return new RunPlan(sessions);
    }

    /** Fork {@code fork} of {@code targets} alone, in the suite's order of them: a fork added until resolved. */
    public static RunPlan fork(Suite suite, int fork, List<String> targets) {
        ClientCatalogue clients = ClientCatalogue.builtIn();
        List<Session> sessions = new ArrayList<>();
        for (String target : suite.targets()) {
            if (targets.contains(target)) {
                Protocol protocol = ProtocolTarget.parse(target).protocol();
                List<Run> runs = (switch (suite.repeat()) {
                    case SCENARIO -> scenarioByScenario(suite, fork);
                    case SWEEP -> sweeps(suite, fork);
                }).stream().filter(run -> speaks(clients, run.scenario().client(), protocol)).toList();
                if (runs.stream().anyMatch(Run::recorded)) {
                    sessions.add(new Session(target, runs));
                }
            }
        }
        return new RunPlan(sessions);
    }

    /** Whether {@code client} (null: the built-in engine, which speaks every protocol) speaks {@code protocol}. */
    static boolean speaks(ClientCatalogue clients, String client, Protocol protocol) {
        return client == null || clients.client(client).map(entry -> entry.library().speaks(protocol)).orElse(true);
    }

    /** Each scenario's repetitions in a row; a warm-up once. */
    private static List<Run> scenarioByScenario(Suite suite, int fork) {
        List<Run> runs = new ArrayList<>();
        for (Suite.Scenario scenario : suite.scenarios()) {
            for (int rep = 1; rep <= (scenario.warmUp() ? 1 : suite.repetitions()); rep++) {
                runs.add(new Run(scenario, fork, rep));
            }
        }
        return runs;
    }

    /** Every scenario once as repetition 1, then again as 2, and so on; warm-ups only in the first pass. */
    private static List<Run> sweeps(Suite suite, int fork) {
        List<Run> runs = new ArrayList<>();
        for (int rep = 1; rep <= suite.repetitions(); rep++) {
            for (Suite.Scenario scenario : suite.scenarios()) {
                if (!scenario.warmUp() || rep == 1) {
                    runs.add(new Run(scenario, fork, rep));
                }
            }
        }
        return runs;
    }

    /**
     * The plan without the runs already measured. A warm-up stays while a recorded run follows it in
     * its session, since a resumed session is a fresh JVM; a session left with nothing to record goes.
     */
    public RunPlan without(Set<Key> measured) {
        List<Session> left = new ArrayList<>();
        for (Session session : sessions) {
            List<Run> runs = new ArrayList<>();
            boolean recordedAfter = false;
            for (Run run : session.runs().reversed()) {
                if (run.recorded() && !measured.contains(run.key(session.target()))) {
                    runs.addFirst(run);
                    recordedAfter = true;
                } else if (!run.recorded() && recordedAfter) {
                    runs.addFirst(run);
                }
            }
            if (recordedAfter) {
                left.add(new Session(session.target(), runs));
            }
        }
        return new RunPlan(left);
    }

    /** The estimate as the header and {@code ./gauntlet suites} print it: {@code 30 min}, 1 at least. */
    public String estimateInMinutes() {
        return minutes(estimate()) + " min";
    }

    /**
     * What the estimate comes to at most, to follow it: {@code " (45 min at most: every warm-up until steady at its
     * maximum, every target falling behind)"}; empty when no run can last longer.
     */
    public String atMostInMinutes() {
        long most = minutes(estimateAtMost());
        return most == minutes(estimate()) ? "" : " (" + most + " min at most: every warm-up until steady at its maximum,"
                + " every target falling behind)";
    }

    private static long minutes(Duration duration) {
        return Math.max(1, Math.round(duration.toSeconds() / 60.0));
    }

    /** How many times the plan starts each target afresh: 1 without forks. */
    public int forks() {
        return sessions.stream().flatMap(s -> s.runs().stream()).mapToInt(Run::fork).max().orElse(1);
    }

    public int recordedRuns() {
        return (int) sessions.stream().flatMap(s -> s.runs().stream()).filter(Run::recorded).count();
    }

    /**
     * The wall time to expect: every session's start, every run's phases and overhead (the generator's
     * JIT warm-up included, where it warms), and for a
     * max-concurrency run the set-up of its connections and its requests' wait, which the target
     * serves to the end before the next run (a closed connection does not end a handler's wait). A
     * warm-up until steady counts the least it can last: the windows its rule judges.
     */
    Duration estimate() {
        return estimate(false);
    }

    /**
     * The wall time with every warm-up until steady at its maximum and every run's last requests answered at its
     * response timeout, as a target that fell behind leaves them: what the suite takes at most.
     */
    public Duration estimateAtMost() {
        return estimate(true);
    }

    private Duration estimate(boolean atMost) {
        Duration total = Duration.ZERO;
        for (Session session : sessions) {
            total = total.plus(TARGET_START);
            for (Run run : session.runs()) {
                Suite.Scenario s = run.scenario();
                boolean holds = s.load().holdsRequests();
                long heldMs = holds ? s.waitMs() + 1_000L * s.load().heldRequests() / HELD_REQUESTS_PER_SECOND_OF_SETUP : 0;
                long warmupMs = atMost ? s.warmupMaxMs() : s.warmupLeastMs();
                total = total.plus(RUN_OVERHEAD).plusMillis(warmupMs + s.template().durationMs() + heldMs);
                if (atMost && !holds) {
                    total = total.plusMillis(s.template().responseTimeoutMs()).plus(FALLING_BEHIND_DRAIN);
                }
                // A load whose requests complete is one the built-in engine warms its JIT for.
                if (s.client() == null && !holds) {
                    total = total.plus(GENERATOR_JIT_WARMUP);
                }
            }
        }
        return total;
    }
}
