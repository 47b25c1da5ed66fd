package dev.gauntlet.runner.results;

import dev.gauntlet.api.Numbers;
import dev.gauntlet.api.ProtocolTarget;
import dev.gauntlet.api.RunSummary;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The protocols study's table: per target and scenario, one line a protocol it was loaded over, at the same offered
 * load, with the rate and the tail and what a request cost each side in CPU (µs of the process's CPU time over the
 * measured phase per request completed, {@link RunSummary.CpuPerRequest}): what TLS, HTTP/2 or HTTP/3 adds or saves,
 * read down a group. A closed loop's p99 is marked as in {@link ResultsTable}, with the same footnote.
 *
 * <pre>{@code
 * System.out.print(ProtocolTable.render(store.rows()));
 * // target             scenario     protocol   rate/s   p50 ms   p99 ms  p99.9 ms  errors  target µs/req  generator µs/req  verdict
 * // netty-event-loop   flood-64     http1      165776    0.347    1.16†      3.23       0           11.8              10.9  ok
 * //                                 h3          31204     1.78    6.14†      10.7       0           57.2              61.0  ok
 * }</pre>
 */
public final class ProtocolTable {
    private static final String FORMAT = "%-28s %-24s %-9s %9s %9s %9s%-1s %9s %7s %14s %17s  %-17s %s%n";

    private ProtocolTable() {
    }

    public static String render(List<ResultRow> rows) {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, FORMAT, "target", "scenario", "protocol",
                "rate/s", "p50 ms", "p99 ms", "", "p99.9 ms", "errors", "target µs/req", "generator µs/req", "verdict",
                "evidence"));
        for (Map.Entry<String, List<ResultRow>> group : byTargetAndScenario(rows).entrySet()) {
            boolean first = true;
            for (ResultRow row : group.getValue()) {
                ProtocolTarget named = ProtocolTarget.parse(row.target());
                out.append(String.format(Locale.ROOT, FORMAT, first ? named.target() : "",
                        first ? row.scenario() + row.runSuffix() : "", named.protocol().label(),
                        ResultsTable.number(row.achievedRatePerSec()), Numbers.millis(row.p50Ms()),
                        Numbers.millis(row.p99Ms()), ResultsTable.mark(row), Numbers.millis(row.p999Ms()), row.errors(),
                        cpu(row, RunSummary.CpuPerRequest::targetUs), cpu(row, RunSummary.CpuPerRequest::generatorUs),
                        row.verdictLabel(), row.note()));
                first = false;
            }
        }
        return out.append(ResultsTable.footnote(rows)).toString();
    }

    /** The rows of each target (whatever its protocol) and scenario run, in the order they first ran. */
    private static Map<String, List<ResultRow>> byTargetAndScenario(List<ResultRow> rows) {
        Map<String, List<ResultRow>> groups = new LinkedHashMap<>();
        for (ResultRow row : rows) {
            String key = ProtocolTarget.parse(row.target()).target() + " " + row.scenario() + row.runSuffix();
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
        }
        return groups;
    }

    private static String cpu(ResultRow row, Function<RunSummary.CpuPerRequest, Double> side) {
        Double us = row.cpuPerRequest() == null ? null : side.apply(row.cpuPerRequest());
        return us == null ? "-" : String.format(Locale.ROOT, us < 100 ? "%.1f" : "%.0f", us);
    }
}
