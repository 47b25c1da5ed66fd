package dev.gauntlet.loadgen;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.Percentiles;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.verdict.Verdicts;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The table {@code gauntlet load} prints for a run: the load and its phases, the request counts,
 * the achieved rate, the latency percentiles, the held model's figures, the generator's cost and
 * the verdict with its evidence.
 */
final class SummaryTable {
    private SummaryTable() {
    }

    /** The whole table for {@code summary}, its verdict and any advice last. */
    static void print(RunSummary summary, PrintWriter out) {
        out.printf(Locale.ROOT, "%s -> %s, %.1f s measured%s%n", summary.spec().model().describe(), summary.spec().url(),
                summary.measuredSec(), summary.spec().client() == null ? "" : ", client " + summary.spec().client());
        if (summary.steadiness() != null) {
            RunSummary.Steadiness steadiness = summary.steadiness();
            out.printf(Locale.ROOT, "  warm-up   %.0f s, %s%n", steadiness.warmupMs() / 1000.0,
                    steadiness.settled() == null ? "fixed" : steadiness.settled() ? "until steady (" + steadiness.warmup().size()
                            + " windows judged)" : "its maximum, not settled");
        }
        out.printf(Locale.ROOT, "  requests  %d sent, %d completed, %d errors%s%s%n", summary.sent(), summary.completed(),
                summary.errorCount(), errorDetail(summary.errors()), summary.droppedQueueFull() == 0 ? ""
                        : ", " + summary.droppedQueueFull() + " dropped unsent (the generator's queue was full)");
        // A client library does not say which connections it opened: its figure is the requests in flight at once (so
        // for the HTTP/3 engine, driven as a library is; its QUIC line says what connections it opened).
        out.printf(Locale.ROOT, summary.spec().client() == null && summary.quic() == null
                        ? "  achieved  %.1f requests/s; %d connections opened, %d open at most%s%n"
                        : "  achieved  %1$.1f requests/s; %3$d in flight at most%4$s%n",
                summary.achievedRatePerSec(), summary.connectionsOpened(), summary.connectionsPeak(),
                (summary.processes() > 1 ? ", over " + summary.processes() + " processes" : "")
                        + (summary.spec().threads() > 1 ? ", " + summary.spec().threads() + " engine threads"
                        + (summary.processes() > 1 ? " each" : "") : ""));
        if (summary.quic() != null) {
            RunSummary.Quic quic = summary.quic();
            out.printf(Locale.ROOT, "  quic      %d connections opened, %d ended before the run did; %d packets sent, %d lost"
                    + " (%.2f %%), %d sent again%n", quic.connectionsOpened(), quic.connectionsEndedEarly(), quic.packetsSent(),
                    quic.packetsLost(), quic.packetsSent() == 0 ? 0 : 100.0 * quic.packetsLost() / quic.packetsSent(),
                    quic.packetsRetransmitted());
        }
        if (summary.goodputPerSec() != null && summary.goodputPerSec() > Verdicts.GOODPUT_BEYOND_RATE * summary.achievedRatePerSec()) {
            // Behind a backlog the measured requests wait while the target answers older ones: say what it did.
            out.printf(Locale.ROOT, "  goodput   %.1f requests/s answered in the measured phase, the warm-up's backlog "
                    + "included%n", summary.goodputPerSec());
        }
        out.printf(Locale.ROOT, "  %-14s %9s %9s %9s %9s %9s %9s %9s%n", "latency (ms)", "p50", "p90", "p99", "p99.9",
                "p99.99", "max", "mean");
        row(out, "response", summary.responseTime());
        row(out, "service", summary.serviceTime());
        row(out, "schedule lag", summary.scheduleLag());
        if (summary.loopLateness().count() > 0) {
            row(out, "loop lateness", summary.loopLateness());
        }
        row(out, "hiccups", summary.generatorHiccups());
        if (summary.wakeGranularityMs() > 0) {
            Long asked = summary.spec().wakeGranularityUs();
            out.printf(Locale.ROOT, "  wake-ups  %.2f ms apart at most (--wake-granularity %s): the requests due meanwhile "
                    + "went together, each timed from its intended start%n", summary.wakeGranularityMs(),
                    asked == null ? "auto" : LoadOptions.wakeGranularityText(asked));
        }
        if (summary.targetHiccups().count() > 0) {
            row(out, "target hiccups", summary.targetHiccups());
        }
        RunSummary.Concurrency held = summary.concurrency();
        if (held != null) {
            out.printf(Locale.ROOT, "  held      %d connected, %d requests held at the end%s%n", held.connected(), held.held(),
                    held.serverAtEnd() == null ? " (no server stats: pass --admin)"
                            : String.format(Locale.ROOT, "; the server started %d, has %d in flight, %d at most",
                            held.serverStarted(), held.serverAtEnd().inFlight(), held.serverAtEnd().maxInFlight()));
        }
        if (summary.hardCapReached()) {
            out.printf(Locale.ROOT, "  the run was cut at its hard cap of %d ms: what was in flight counts as timed out%n",
                    summary.spec().hardCapMs());
        }
        RunSummary.GeneratorCost cost = summary.generatorCost();
        out.printf(Locale.ROOT, "  generator %d ms CPU (engine thread running %.0f %%, waiting for a CPU %.0f %%), "
                        + "%d MB heap at most, %d threads at most%n", cost.cpuMs(), cost.engineCpuPercent(),
                cost.engineWaitingPercent(), cost.heapUsedMaxBytes() >> 20, cost.threadsPeak());
        out.printf(Locale.ROOT, "  verdict   %s%s%n", summary.verdict().label(),
                summary.evidence().isEmpty() ? "" : ": " + String.join("; ", summary.evidence()));
        if (Verdicts.connectionsPiledUp(summary)) {
            int cap = Verdicts.suggestedConnections(summary);
            out.printf(Locale.ROOT, "  the target fell behind and the open loop opened connections for the waiting requests; "
                    + "to measure it on a bounded number, cap them with --max-connections %s%n",
                    cap > 0 ? cap + " (twice what the rate needs)" : "N (about rate × its normal response time, doubled)");
        }
    }

    private static void row(PrintWriter out, String name, Percentiles p) {
        out.printf(Locale.ROOT, "  %-14s %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f%n", name, p.p50Ms(), p.p90Ms(),
                p.p99Ms(), p.p999Ms(), p.p9999Ms(), p.maxMs(), p.meanMs());
    }

    private static String errorDetail(Map<ErrorClass, Long> errors) {
        String detail = errors.entrySet().stream().filter(e -> e.getValue() > 0)
                .map(e -> e.getKey().name().toLowerCase(Locale.ROOT).replace('_', ' ') + " " + e.getValue())
                .collect(Collectors.joining(", "));
        return detail.isEmpty() ? "" : " (" + detail + ")";
    }
}
