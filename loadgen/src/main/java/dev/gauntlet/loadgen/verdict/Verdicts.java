package dev.gauntlet.loadgen.verdict;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.Numbers;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.Verdict;
import dev.gauntlet.loadgen.measure.SteadyJudge;
import dev.gauntlet.loadgen.measure.Tolerances;
import dev.gauntlet.loadgen.transport.Engine;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Decides whose figures a run's are, from what the run measured about both sides and the
 * platform. The first rule that holds wins, in this order: the generator's own limits (its
 * figures are then not the target's at all), then the target's, then a steady state not reached
 * (an unsettled warm-up, a drifting measured phase), then the platform's noise.
 *
 * <pre>{@code
 * RunSummary judged = Verdicts.judge(summary);    // summary.verdict() ignored, replaced
 * }</pre>
 *
 * <p>Lateness is always weighed against the noise floor the generator's hiccup meter measured in
 * the same window: a loop that came as late as a thread sleeping 1 ms on the same machine was
 * late because of the machine. The thresholds are documented in {@code docs/verdicts.md}.
 */
public final class Verdicts {
    /** Share of the measured phase the engine thread ran or waited for a CPU from which it had no time to spare. */
    static final double ENGINE_BUSY_PERCENT = 97;
    /**
     * Share of its CPUs from which a client library's generator process had no time to spare. Its
     * driver thread only hands requests over; the library's own threads do the work, so their
     * process's CPU, not the driver's, says whether it kept up.
     */
    static final double LIBRARY_BUSY_PERCENT = 90;
    /**
     * Share of the measured phase's whole windows a client library's process may spend compiling (its JIT's compile
     * time, summed over its compiler threads) before its figures are its own cold start's: the steady rule's bound.
     */
    static final double LIBRARY_COMPILING_SHARE = 0.2;
    /** Share of its CPUs from which the target had no time to spare either: the throughput is then its own. */
    static final double TARGET_BUSY_PERCENT = 90;
    /** A goodput this much above the achieved rate is told: the target was answering a backlog, not idle. */
    public static final double GOODPUT_BEYOND_RATE = 1.1;
    /** Share of the schedule an open loop must offer (sent, refused or timed out at connect). */
    static final double OFFERED_SHARE = 0.95;
    /**
     * Share of the response-time p99 the loop's lateness must reach to make the figures the
     * generator's: each response time, measured from its intended start, holds the loop's
     * lateness, so a smaller share leaves them the target's. A target that stalls sends its
     * backlog at once when it resumes, and the loop comes late while it takes that burst in.
     */
    static final double LATE_SHARE = 0.1;
    /**
     * Connections beyond this many times what the rate needs ({@link #neededConnections}), plus
     * {@link #PILE_SLACK}, piled up.
     */
    static final double PILE_FACTOR = 4;
    static final int PILE_SLACK = 64;
    /**
     * How far beyond the declared wait a service time may go and still be the target keeping to it:
     * this many milliseconds or {@link #SERVICE_SLACK_SHARE} of the wait, whichever is more, plus what
     * the platform explains. A connect may take as long.
     */
    static final double SERVICE_SLACK_MS = 20;
    static final double SERVICE_SLACK_SHARE = 0.1;
    /** Share of failed requests (of the overload classes) from which the target did not keep up. */
    static final double OVERLOAD_ERROR_SHARE = 0.001;

    private static final Set<ErrorClass> OVERLOAD_ERRORS =
            EnumSet.of(ErrorClass.REFUSED, ErrorClass.CONNECT_TIMEOUT, ErrorClass.RESET, ErrorClass.RESPONSE_TIMEOUT);

    private Verdicts() {
    }

    public static RunSummary judge(RunSummary run) {
        double allowanceMs = lagAllowanceMs(run);
        double floorMs = run.generatorHiccups().p99Ms();
        double explainedMs = allowanceMs + Tolerances.HICCUP_FACTOR * floorMs;
        String floor = String.format(Locale.ROOT, "the generator's wake-up p99 %s ms", ms(floorMs))
                + (run.wakeGranularityMs() > 0 ? String.format(Locale.ROOT, ", its loop's wake granularity %s ms",
                ms(run.wakeGranularityMs())) : "");

        List<String> generator = new ArrayList<>();
        List<String> target = new ArrayList<>();
        List<String> platform = new ArrayList<>();
        List<String> notes = new ArrayList<>();

        RunSummary.GeneratorCost cost = run.generatorCost();
        boolean targetBusy = run.targetCpuPercent() != null && run.targetCpuPercent() >= TARGET_BUSY_PERCENT;
        boolean engineBusy = cost.engineCpuPercent() + cost.engineWaitingPercent() >= ENGINE_BUSY_PERCENT;
        // A client library's threads, or the HTTP/3 engine's QUIC event loop, do the work the engine thread hands over:
        // the process's CPU, not that thread's, says whether the generator had time to spare.
        String handedOver = run.spec().client() != null ? "the client library's process"
                : run.spec().http3() ? "the generator's process (its HTTP/3 engine: Netty's QUIC event loop)" : null;
        boolean libraryBusy = handedOver != null && cost.processCpuPercent() >= LIBRARY_BUSY_PERCENT;
        String targetShare = run.targetCpuPercent() == null ? "an unknown share"
                : String.format(Locale.ROOT, "%.0f %%", run.targetCpuPercent());
        RunSummary.Concurrency held = run.concurrency();
        // A held burst keeps the engine busy connecting; once every request is held, that cut nothing.
        boolean heldEvery = held != null && held.held() >= run.spec().model().heldRequests();
        if (engineBusy && !targetBusy && !heldEvery) {
            generator.add(String.format(Locale.ROOT, "the engine thread ran %.0f %% of the measured phase and waited "
                            + "for a CPU %.0f %%: it had no time to spare, while the target used %s of its CPUs",
                    cost.engineCpuPercent(), cost.engineWaitingPercent(), targetShare));
        }
        if (libraryBusy && !targetBusy) {
            generator.add(String.format(Locale.ROOT, "%s used %.0f %% of its CPUs from the measured phase on: it had "
                    + "no time to spare, while the target used %s of its CPUs", handedOver, cost.processCpuPercent(), targetShare));
        }
        long libraryCompileMs = handedOver == null ? 0 : measuredGeneratorCompileMs(run);
        long measuredWindowMs = run.steadiness() == null ? 0 : 1_000L * run.steadiness().measured().size();
        if (libraryCompileMs > LIBRARY_COMPILING_SHARE * measuredWindowMs && !targetBusy) {
            // A library engine (and the HTTP/3 one) gets no JIT warm-up of its own: cold, each request runs interpreted
            // code (a TLS handshake per new connection, say), more requests come meanwhile, and the backlog looks like a
            // slow target.
            generator.add(String.format(Locale.ROOT, "%s was still compiling: its JIT compiled for %d ms in the measured "
                    + "phase's %d s, its cold start in the figures, while the target used %s of its CPUs; give it a longer "
                    + "warm-up (--warmup, or --warmup-max)", handedOver, libraryCompileMs, measuredWindowMs / 1_000,
                    targetShare));
        }
        long overloadErrors = OVERLOAD_ERRORS.stream().mapToLong(c -> run.errors().getOrDefault(c, 0L)).sum();
        if (run.hardCapReached()) {
            target.add("the run was cut at its hard cap with requests unanswered");
        }
        if (overloadErrors > 0 && overloadErrors >= OVERLOAD_ERROR_SHARE * Math.max(run.scheduled(), run.sent())) {
            target.add(overloadErrors + " requests failed (" + errorDetail(run) + ")");
        }
        Double goodput = run.goodputPerSec();
        if (goodput != null && goodput > GOODPUT_BEYOND_RATE * run.achievedRatePerSec()) {
            // Behind a backlog the measured requests wait while the target answers older ones: a rate of 0 is not idle.
            notes.add(String.format(Locale.ROOT, "the target answered %.0f/s in the measured phase, the warm-up's backlog "
                    + "included, where the measured requests completed %.0f/s", goodput, run.achievedRatePerSec()));
        }
        if (held != null && held.connectRetries() > 0) {
            notes.add(String.format(Locale.ROOT, "%d connects outlasted the %d ms connect timeout and were tried again "
                    + "within the hold, not counted as the target's limit", held.connectRetries(), run.spec().connectTimeoutMs()));
        }
        if (run.completed() == 0 && run.errorCount() == 0 && !run.spec().model().holdsRequests()) {
            // Requests still unanswered when the phase ends are neither completed nor errors: without this, a
            // target that answered nothing at all (busy with a previous run's queue, say) would pass as ok.
            target.add("no request completed in the measured phase, and none failed: the target answered nothing");
        }
        if (run.spec().model().schedulesByRate()) {
            TargetPace pace = TargetPace.of(run, explainedMs);
            // A closed loop's service time grows with its connections by design (Little's law): only an open
            // loop declares a demand the target can fall behind.
            if (pace.medianFarBeyondWait()) {
                target.add(String.format(Locale.ROOT, "its median service time was %s ms for a declared wait of %d ms: "
                        + "the target fell behind, whatever the generator's connections did", ms(run.serviceTime().p50Ms()),
                        run.spec().declaredWaitMs()));
            }
            if (run.droppedQueueFull() > 0) {
                // The queue fills when requests cannot be sent as fast as they fall due: the generator's own limit,
                // unless the target's answers were what held its connections (the collapse behind a capped pool).
                String dropped = String.format(Locale.ROOT, "%d requests of the measured phase were dropped, never "
                        + "sent: they fell due while the generator's queue of requests waiting for a connection was "
                        + "full (%d a process)", run.droppedQueueFull(), Engine.PENDING_PER_PROCESS);
                if (pace.medianFarBeyondWait()) {
                    target.add(dropped + ", its connections held by the target's slow answers");
                } else {
                    generator.add(dropped + ", the rate outrunning what it could send; lower the rate or split it "
                            + "over more processes");
                }
            }
            judgeOpenLoop(run, run.spec().model().scheduledRatePerSec(), targetBusy, pace, explainedMs, floor, generator, target, platform, notes);
        }
        List<String> unsteady = unsteady(run, platform);
        if (!generator.isEmpty()) {
            return run.withVerdict(run.spec().client() == null ? Verdict.GENERATOR_LIMITED : Verdict.CLIENT_LIMITED,
                    withNotes(generator, notes));
        }
        if (!target.isEmpty()) {
            return run.withVerdict(Verdict.TARGET_OVERLOADED, withNotes(target, withNotes(unsteady, notes)));
        }
        if (!unsteady.isEmpty()) {
            return run.withVerdict(Verdict.NOT_STEADY, withNotes(unsteady, withNotes(platform, notes)));
        }
        if (!platform.isEmpty()) {
            return run.withVerdict(Verdict.PLATFORM_NOISY, withNotes(platform, notes));
        }
        return run.withVerdict(Verdict.OK, withNotes((engineBusy || libraryBusy) && targetBusy ? List.of(String.format(Locale.ROOT, "both sides had no "
                + "time to spare: the target used %.0f %% of its CPUs, so the throughput is its own", run.targetCpuPercent())) : List.of(), notes));
    }

    /**
     * Why the figures are not a steady state's, one sentence each: a warm-up that reached its
     * maximum unsettled, a measured phase that drifted between its halves. Empty when steady, or
     * when there is no record to tell (max concurrency, a split load). A drift the machine's
     * capacity explains goes to {@code platform} instead.
     */
    private static List<String> unsteady(RunSummary run, List<String> platform) {
        RunSummary.Steadiness steadiness = run.steadiness();
        List<String> unsteady = new ArrayList<>();
        if (steadiness == null) {
            return unsteady;
        }
        boolean openLoop = run.spec().model().schedulesByRate();
        String warmupSec = Numbers.compact(Math.round(steadiness.warmupMs() / 100.0) / 10.0);
        if (steadiness.fellBehind()) {
            unsteady.add(String.format(Locale.ROOT, "the warm-up ended unsettled after %s s: the target completed under "
                    + "%.0f %% of the offered rate in each of its last %d s, and a longer warm-up would only have "
                    + "lengthened its backlog", warmupSec, 100 * Tolerances.SUSTAINED_SHARE, 2 * steadiness.rule().windows()));
        } else if (Boolean.FALSE.equals(steadiness.settled())) {
            unsteady.add(String.format(Locale.ROOT, "the warm-up did not settle within its maximum of %s s: %s",
                    warmupSec, SteadyJudge.disagreement(steadiness.warmup(), steadiness.rule(), openLoop)));
        }
        MeasuredDrift.Drift drift = MeasuredDrift.of(run);
        if (drift != null) {
            (drift.platforms() ? platform : unsteady).add(drift.sentence());
        }
        return unsteady;
    }

    /** The generator JVM's JIT compile time over the measured phase's windows; 0 when not recorded. */
    private static long measuredGeneratorCompileMs(RunSummary run) {
        return run.steadiness() == null ? 0 : run.steadiness().measured().stream()
                .mapToLong(RunSummary.Steadiness.Window::generatorCompileMs).filter(ms -> ms > 0).sum();
    }

    /**
     * The schedule lag allowed before it is weighed against the platform: the spec's allowance, and
     * the open loop's wake granularity, a lateness the loop took on by design to send by the batch.
     */
    static double lagAllowanceMs(RunSummary run) {
        return run.spec().maxScheduleLagP99Ms() + run.wakeGranularityMs();
    }

    private static List<String> withNotes(List<String> evidence, List<String> notes) {
        List<String> all = new ArrayList<>(evidence);
        all.addAll(notes);
        return all;
    }

    private static void judgeOpenLoop(RunSummary run, double ratePerSec, boolean targetBusy, TargetPace pace,
                                      double explainedMs, String floor,
                                      List<String> generator, List<String> target, List<String> platform, List<String> notes) {
        double lagP99Ms = run.scheduleLag().p99Ms();
        double loopLateP99Ms = run.loopLateness().p99Ms();
        // What the loop's own lateness leaves of the lag: time spent waiting for a connection.
        double connectionWaitMs = lagP99Ms - loopLateP99Ms;
        boolean lateBeyondPlatform = loopLateP99Ms > explainedMs;
        boolean loopLate = lateBeyondPlatform && loopLateP99Ms > LATE_SHARE * run.responseTime().p99Ms();
        boolean waitedForConnections = connectionWaitMs > explainedMs;
        String lateness = String.format(Locale.ROOT, "its loop came to the intended starts late by p99 %s ms, beyond "
                + "what the platform explains (%s)", ms(loopLateP99Ms), floor);
        if (loopLate) {
            generator.add(lateness);
        } else if (lateBeyondPlatform) {
            notes.add(String.format(Locale.ROOT, "%s, yet under a tenth of the response-time p99 of %s ms that holds it: "
                    + "the figures are the target's", lateness, ms(run.responseTime().p99Ms())));
        }
        // The steady state's need, without the stalls: a cap that holds it is not the bottleneck.
        double inService = ratePerSec * run.serviceTime().p50Ms() / 1000;
        boolean capReached = run.connectionsPeak() >= run.connectionsLimit();
        // Who made requests wait for a connection: the generator, when its connections were fewer than the
        // rate keeps in service while the target kept to its declared wait and accepted new connections promptly;
        // otherwise the target, whose slow answers (the odd stall included) held the connections.
        boolean poolShort = waitedForConnections && pace.keptUp() && run.connectionsPeak() < inService;
        String need = String.format(Locale.ROOT, "%s/s × median service %s ms = %.0f", Numbers.compact(ratePerSec),
                ms(run.serviceTime().p50Ms()), inService);
        if (poolShort && capReached) {
            generator.add(String.format(Locale.ROOT, "requests waited for one of its %d connections, fewer than the "
                    + "rate keeps in service (%s)", run.connectionsLimit(), need));
        } else if (poolShort && run.spec().client() == null) {
            generator.add(String.format(Locale.ROOT, "requests waited for a connection (schedule lag p99 %s ms, of "
                    + "which the loop's own lateness %s ms) while the target %s: its %d connections at most were "
                    + "fewer than the rate keeps in service (%s)", ms(lagP99Ms), ms(loopLateP99Ms), pace.describe(),
                    run.connectionsPeak(), need));
        } else if (waitedForConnections && run.spec().client() != null && !capReached && !targetBusy) {
            // A library engine stamps the send when the library takes the request (its thread running, in the
            // blocking modes), not when a connection is free: below the driver's limit and with the target's CPU
            // to spare, the wait is the client's.
            generator.add(String.format(Locale.ROOT, "requests waited in the client library before it took them: "
                    + "schedule lag p99 %s ms, of which the driver's own lateness p99 %s ms, with fewer than its "
                    + "limit of %d in flight", ms(lagP99Ms), ms(loopLateP99Ms), run.connectionsLimit()));
        } else if (waitedForConnections) {
            target.add(String.format(Locale.ROOT, "requests waited for a connection, every one busy or not yet "
                    + "accepted: schedule lag p99 %s ms, of which the loop's own lateness p99 %s ms, while the target %s",
                    ms(lagP99Ms), ms(loopLateP99Ms), pace.describe()));
        }
        long offered = run.sent() + run.errors().getOrDefault(ErrorClass.REFUSED, 0L)
                + run.errors().getOrDefault(ErrorClass.CONNECT_TIMEOUT, 0L);
        if (run.scheduled() > 0 && offered < OFFERED_SHARE * run.scheduled()) {
            String shortfall = String.format(Locale.ROOT, "sent %d of %d scheduled requests", offered, run.scheduled());
            if (loopLate) {
                generator.add(shortfall);
            } else {
                (poolShort ? generator : target).add(shortfall + ", the rest waiting for a connection");
            }
        }
        Double sustained = run.sustainedRatePerSec();
        if (sustained != null && sustained < Tolerances.SUSTAINED_SHARE * ratePerSec) {
            target.add(String.format(Locale.ROOT, "it completed %.0f/s over the second half of the measured phase, "
                    + "against %s/s offered: the target fell behind", sustained, Numbers.compact(ratePerSec)));
        }
        if (connectionsPiledUp(run)) {
            target.add(String.format(Locale.ROOT, "connections piled up: %d opened in the measured phase where the rate "
                    + "needs %s: the target fell behind", run.connectionsOpenedMeasured(), describeNeed(run, ratePerSec)));
        }
        if (lagP99Ms > lagAllowanceMs(run)) {
            platform.add(String.format(Locale.ROOT, "schedule lag p99 %s ms, no later than the platform's own noise "
                    + "explains (%s)", ms(lagP99Ms), floor));
        }
    }

    /**
     * True when an open loop opened connections in its measured phase far past what its rate needs:
     * {@code load} then suggests a cap. The measured phase's, not the run's: connections a pool opened
     * for a target still cold in the warm-up stay open, idle, once it keeps up.
     */
    public static boolean connectionsPiledUp(RunSummary run) {
        LoadModel model = run.spec().model();
        return model.schedulesByRate()
                && run.connectionsOpenedMeasured() > PILE_FACTOR * neededConnections(run, model.scheduledRatePerSec()) + PILE_SLACK;
    }

    /** A connection cap with room to spare: twice what the rate needs, at least 8; 0 when nothing completed. */
    public static int suggestedConnections(RunSummary run) {
        LoadModel model = run.spec().model();
        if (!model.schedulesByRate() || run.serviceTime().count() == 0) {
            return 0;
        }
        return (int) Math.max(8, Math.ceil(2 * neededConnections(run, model.scheduledRatePerSec())));
    }

    /**
     * Little's law at the target's median service time, not its mean (a backlog inflates the mean
     * with the very waiting the connections were opened for), plus the generator's worst stall:
     * requests due during a stall all start when it ends.
     */
    private static double neededConnections(RunSummary run, double ratePerSec) {
        return ratePerSec * (run.serviceTime().p50Ms() + run.generatorHiccups().maxMs()) / 1000;
    }

    private static String describeNeed(RunSummary run, double ratePerSec) {
        return String.format(Locale.ROOT, "%s/s × (median service %s ms + worst generator hiccup %s ms) = %.0f",
                Numbers.compact(ratePerSec), ms(run.serviceTime().p50Ms()), ms(run.generatorHiccups().maxMs()),
                neededConnections(run, ratePerSec));
    }

    /**
     * Whether the target kept to the wait its URL declares and accepted connections promptly: what
     * decides whose doing a request's wait for a connection was.
     *
     * @param serviceSlackMs how far beyond the declared wait a service time (or a connect) may go
     */
    private record TargetPace(RunSummary run, double serviceSlackMs) {
        static TargetPace of(RunSummary run, double explainedMs) {
            double waitMs = run.spec().declaredWaitMs();
            return new TargetPace(run, Math.max(SERVICE_SLACK_MS, SERVICE_SLACK_SHARE * waitMs) + explainedMs);
        }

        /** Its median service time far beyond the declared wait: the target fell behind. */
        boolean medianFarBeyondWait() {
            return run.serviceTime().count() > 0 && run.serviceTime().p50Ms() > limitMs();
        }

        boolean answeredWithinWait() {
            return run.serviceTime().p99Ms() <= limitMs();
        }

        boolean acceptedPromptly() {
            return run.connectTime().p99Ms() <= serviceSlackMs;
        }

        boolean keptUp() {
            return answeredWithinWait() && acceptedPromptly();
        }

        /** What the target did, for the evidence: "answered within ... and accepted ..." or where it did not. */
        String describe() {
            String answered = String.format(Locale.ROOT, "%s its declared wait of %d ms (service p99 %s ms)",
                    answeredWithinWait() ? "answered within" : "answered beyond", run.spec().declaredWaitMs(),
                    ms(run.serviceTime().p99Ms()));
            String accepted = String.format(Locale.ROOT, "%s (connect p99 %s ms)",
                    acceptedPromptly() ? "accepted new connections promptly" : "was slow to accept new connections",
                    ms(run.connectTime().p99Ms()));
            return answered + " and " + accepted;
        }

        private double limitMs() {
            return run.spec().declaredWaitMs() + serviceSlackMs;
        }
    }

    private static String errorDetail(RunSummary run) {
        return run.errors().entrySet().stream().filter(e -> e.getValue() > 0)
                .map(e -> e.getKey().name().toLowerCase(Locale.ROOT).replace('_', ' ') + " " + e.getValue())
                .collect(Collectors.joining(", "));
    }

    static String ms(double valueMs) {
        return valueMs >= 100 ? String.format(Locale.ROOT, "%.0f", valueMs)
                : valueMs >= 10 ? String.format(Locale.ROOT, "%.1f", valueMs)
                : String.format(Locale.ROOT, "%.2f", valueMs);
    }
}
