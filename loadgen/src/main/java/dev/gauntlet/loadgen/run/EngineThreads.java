package dev.gauntlet.loadgen.run;

import dev.gauntlet.api.BytesTransferred;
import dev.gauntlet.api.ErrorKind;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RequestTimings;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.measure.AdminClient;
import dev.gauntlet.loadgen.measure.ErrorKinds;
import dev.gauntlet.loadgen.measure.LatencyRecorder;
import dev.gauntlet.loadgen.measure.PhaseClock;
import dev.gauntlet.loadgen.measure.RequestCounters;
import dev.gauntlet.loadgen.measure.ThreadDemand;
import dev.gauntlet.loadgen.measure.TrafficCounters;
import dev.gauntlet.loadgen.model.LoadDriver;
import dev.gauntlet.loadgen.split.LoadShares;
import dev.gauntlet.loadgen.transport.ConnectionSlots;
import dev.gauntlet.loadgen.transport.Engine;
import dev.gauntlet.loadgen.transport.LeanEngine;
import dev.gauntlet.loadgen.transport.LibraryEngine;
import dev.gauntlet.loadgen.transport.WakeFloor;
import dev.gauntlet.loadgen.transport.WireTimings;
import org.HdrHistogram.Histogram;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The engines of one generator process, one per thread ({@code --threads N}; a client library's
 * {@link LibraryEngine} is always one): each its own share
 * of the load, connections, counters and latency writer, so they share nothing while they run;
 * their figures are summed as the processes' are.
 *
 * <pre>{@code
 * EngineThreads engines = new EngineThreads(spec, address, sources, maxConnections, runStartNs, recorder, admin);
 * engines.run();                       // engine 0 on the calling thread, the others on their own
 * engines.startMeasuringAt(nextTickNs);  // from the ticker, when a warm-up until steady settled
 * long sent = engines.counters().sentCount();
 * }</pre>
 *
 * <p>Shares as {@link LoadShares#cut} cuts them: a constant-rate schedule's share i starts i / rate
 * later, so the engines' starts interleave instead of marching in step.
 */
public final class EngineThreads {

    private final List<Engine> engines = new ArrayList<>();
    private final List<RequestCounters> counters = new ArrayList<>();
    private final List<PhaseClock> clocks = new ArrayList<>();
    private final List<TrafficCounters> traffic = new ArrayList<>();
    /** The built-in engines' times on the wire; none for a client library's engine, which does not see them. */
    private final List<WireTimings> wireTimings = new ArrayList<>();
    private final ThreadDemand[] demands;
    private final CountDownLatch demandsKnown;
    private final WakeFloor wakeFloor = new WakeFloor();

    EngineThreads(LoadSpec spec, InetSocketAddress address, InetAddress[] sources, int maxConnections, long runStartNs,
                  LatencyRecorder recorder, AdminClient admin) {
        int n = spec.threads();
        for (int i = 0; i < n; i++) {
            LoadSpec cut = n == 1 ? spec : LoadShares.cut(spec, i, n);
            LoadSpec share = spec.client() == null ? ConnectionSlots.of(cut) : cut;
            long engineStartNs = runStartNs + share.startOffsetNs();
            PhaseClock clock = new PhaseClock(share, engineStartNs);
            clocks.add(clock);
            RequestCounters engineCounters = new RequestCounters(clock);
            counters.add(engineCounters);
            // Only the first engine asks the target for its counts: max concurrency runs on one thread.
            LoadDriver driver = LoadDriver.of(share, engineStartNs, clock, recorder.writer(i), engineCounters,
                    i == 0 ? admin : null);
            // The lean engine speaks HTTP/1.1 and HTTP/2 on sockets of its own; HTTP/3 is Netty's QUIC, driven as a library is.
            boolean lean = spec.client() == null && !spec.http3();
            TrafficCounters engineTraffic = lean ? TrafficCounters.ofSockets(clock) : TrafficCounters.ofRequests(clock);
            traffic.add(engineTraffic);
            if (lean) {
                WireTimings timings = new WireTimings(clock);
                wireTimings.add(timings);
                engines.add(new LeanEngine(share, driver, address, sources,
                        ConnectionSlots.limit(share, Math.max(1, maxConnections / n)),
                        Math.max(1, Engine.PENDING_PER_PROCESS / n), engineCounters, wakeFloor, engineTraffic, timings));
            } else if (spec.client() == null) {
                engines.add(new LibraryEngine(share, driver, ConnectionSlots.limit(share, Math.max(1, maxConnections / n)),
                        Math.max(1, Engine.PENDING_PER_PROCESS / n), engineTraffic));
            } else {
                engines.add(new LibraryEngine(share, driver, maxConnections, Engine.PENDING_PER_PROCESS, engineTraffic));
            }
        }
        demands = new ThreadDemand[n];
        demandsKnown = new CountDownLatch(n - 1);
        demands[0] = ThreadDemand.ofCurrentThread(engines.getFirst()::pollingNs);
    }

    /** Runs every engine to its end; an interrupt of the calling thread ends them all, as their hard cap does. */
    void run() {
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        List<Thread> others = new ArrayList<>();
        for (int i = 1; i < engines.size(); i++) {
            int index = i;
            others.add(Thread.ofPlatform().name("gauntlet-engine-" + i).start(() -> {
                demands[index] = ThreadDemand.ofCurrentThread(engines.get(index)::pollingNs);
                demandsKnown.countDown();
                try {
                    engines.get(index).run();
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        try {
            engines.getFirst().run();
        } finally {
            boolean interrupted = Thread.interrupted();
            for (Thread other : others) {
                interrupted |= join(other, interrupted);
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    /** Waits for {@code engine}, passing an interrupt on to it; true when this thread was interrupted meanwhile. */
    private static boolean join(Thread engine, boolean interrupted) {
        if (interrupted) {
            engine.interrupt();
        }
        while (true) {
            try {
                engine.join();
                return interrupted;
            } catch (InterruptedException e) {
                interrupted = true;
                engine.interrupt();
            }
        }
    }

    /** Every engine thread's demand, once each has started. */
    public ThreadDemand[] demands() {
        try {
            demandsKnown.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return demands.clone();
    }

    /** The counts of every engine, summed now. */
    RequestCounters counters() {
        return RequestCounters.sumOf(counters);
    }

    long measureStartNs() {
        return engines.getFirst().phases().measureStartNs();
    }

    long measureEndNs() {
        return engines.getFirst().phases().measureEndNs();
    }

    /** Whether the warm-up lasts until steady, its end to be decided by {@link #startMeasuringAt}. */
    boolean warmupUntilSteady() {
        return clocks.getFirst().decides();
    }

    /** The warm-up settled: every engine's measured phase starts at {@code startNs}, each share at its own offset. */
    void startMeasuringAt(long startNs) {
        clocks.forEach(clock -> clock.startAt(startNs));
    }

    long measuredNs() {
        return engines.stream().mapToLong(engine -> engine.phases().measuredNs()).max().orElseThrow();
    }

    long measuredIssued() {
        return engines.stream().mapToLong(engine -> engine.phases().measuredIssued()).sum();
    }

    Histogram loopLateness() {
        Histogram sum = LatencyRecorder.newHistogram();
        engines.forEach(engine -> sum.add(engine.phases().loopLateness()));
        return sum;
    }

    /** How long the engines' connections took to open; empty when no engine sees its connects (a client library's). */
    Histogram connectTimes() {
        return WireTimings.readyTimes(wireTimings);
    }

    /** Connect, TLS handshake, waiting and receiving; null when the engines do not see them (a client library's). */
    RequestTimings timings() {
        return wireTimings.isEmpty() ? null : WireTimings.summary(wireTimings);
    }

    /** The engines' requests in flight, connections and bytes, summed now. */
    TrafficCounters.Snapshot traffic() {
        return TrafficCounters.sumOf(traffic);
    }

    /** The bytes on the wire from the measured phase's start; null when the engines do not see them (a library's). */
    BytesTransferred measuredBytes() {
        return TrafficCounters.measuredBytes(traffic, measuredNs() / 1e9);
    }

    /** The measured failures by kind, for the error table; once the engines have ended. */
    List<ErrorKind> errorKinds(LoadSpec spec) {
        return ErrorKinds.summary(counters.stream().map(RequestCounters::errorKinds).toList(), measureStartNs(), spec);
    }

    /** Where the interval ticker tells the engines the platform's wake-up p99 of its last second. */
    WakeFloor wakeFloor() {
        return wakeFloor;
    }

    /**
     * The coarsest wake granularity of the built-in engine's open loop in the measured phase, in ms: the
     * spec's, or the floor's; 0 for a client library, which wakes for each start, and for a load without a rate.
     */
    double wakeGranularityMs(LoadSpec spec) {
        if (spec.client() != null || !spec.model().schedulesByRate()) {
            return 0;
        }
        return spec.wakeGranularityUs() != null ? spec.wakeGranularityUs() / 1e3 : wakeFloor.largestNs(measureStartNs(), measureEndNs()) / 1e6;
    }

    /** An HTTP/3 load's QUIC figures over every engine thread; null for the other protocols. */
    RunSummary.Quic quic() {
        return engines.stream().map(Engine::quic).filter(Objects::nonNull).reduce(RunSummary.Quic::plus).orElse(null);
    }

    int connectionsPeak() {
        return engines.stream().mapToInt(Engine::connectionsPeak).sum();
    }

    int connectionsLimit() {
        return engines.stream().mapToInt(Engine::connectionsLimit).sum();
    }

    boolean hardCapReached() {
        return engines.stream().anyMatch(engine -> engine.phases().hardCapReached());
    }

    /** Max concurrency's figures (one engine); null for the other models. */
    RunSummary.Concurrency concurrency() {
        return engines.getFirst().concurrency();
    }
}
