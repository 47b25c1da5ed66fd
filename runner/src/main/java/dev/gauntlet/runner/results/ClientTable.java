package dev.gauntlet.runner.results;

import dev.gauntlet.api.JvmMetrics;
import dev.gauntlet.api.Numbers;
import dev.gauntlet.api.Protocol;
import dev.gauntlet.api.ProtocolTarget;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The client study's table: a row per client and case, in run order, with what the 2015 table
 * had — response time max and average, the generator's heap max and average, its platform
 * threads at most, errors by class — and beside it the percentiles, the achieved rate, direct
 * memory, the generator's CPU and the verdict, and what the target held at once ({@code in flight}:
 * the held case's figure). The generator's figures come from its JFR
 * recording ({@code generatorJvm}); a dash where it has none. The heap is what is left after each
 * GC of the measured phase, {@code no gc} when none ran.
 *
 * <pre>{@code
 * System.out.print(ClientTable.render(store.rows()));
 * // case        client          rate/s  avg ms  max ms  p50 ms ... heap max MB  heap avg MB  threads  direct MB  cpu %  errors  verdict
 * // rate-1k     okhttp-virtual     500   101.2   140.3  100.9 ...          38           21       24          0    6.1  -       ok
 * }</pre>
 */
public final class ClientTable {
    private static final String FORMAT = "%-14s %-19s %9s %9s %9s %9s %9s %9s %9s %11s %11s %8s %9s %6s  %-24s %-17s %s%n";
    private static final double MB = 1024 * 1024;

    private ClientTable() {
    }

    public static String render(List<ResultRow> rows) {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, FORMAT, "case", "client", "rate/s", "avg ms",
                "max ms", "p50 ms", "p99 ms", "p99.9 ms", "in flight", "heap max MB", "heap avg MB", "threads", "direct MB", "cpu %",
                "errors", "verdict", "evidence"));
        for (ResultRow row : rows) {
            JvmMetrics jvm = row.generatorJvm();
            // The held case lets its requests go unanswered: no times, rather than times of zero.
            Function<Double, String> time = ms -> row.requests() == 0 ? "-" : Numbers.millis(ms);
            out.append(String.format(Locale.ROOT, FORMAT, caseOf(row) + row.runSuffix(),
                    clientOf(row), ResultsTable.number(row.achievedRatePerSec()),
                    time.apply(row.meanMs()), time.apply(row.maxMs()), time.apply(row.p50Ms()),
                    time.apply(row.p99Ms()), time.apply(row.p999Ms()),
                    row.serverMaxInFlight() == null ? "-" : row.serverMaxInFlight().toString(),
                    heapAfterGc(jvm, JvmMetrics.Heap::usedMaxBytes), heapAfterGc(jvm, JvmMetrics.Heap::usedMeanBytes),
                    figure(jvm, j -> j.threads() == null ? null : j.threads().platformPeak()),
                    megabytes(jvm, j -> j.memory() == null ? null : j.memory().directMaxBytes()),
                    figure(jvm, j -> j.cpu() == null || j.cpu().meanPercent() == null ? null
                            : String.format(Locale.ROOT, "%.1f", j.cpu().meanPercent())),
                    errors(row), row.verdictLabel(), row.note()));
        }
        return out.toString();
    }

    /**
     * Who sent the row's load, and over what when its target is {@code NAME@PROTOCOL}: {@code reactor-async@h3} (the
     * client suite runs the clients that speak h3 against its h3 target too).
     */
    static String clientOf(ResultRow row) {
        String client = row.client() == null ? "built-in" : row.client();
        Protocol protocol = ProtocolTarget.parse(row.target()).protocol();
        return protocol == Protocol.HTTP1 ? client : ProtocolTarget.name(client, protocol);
    }

    /** The suite's case a row ran: its scenario's name without the client it was spelled out for. */
    static String caseOf(ResultRow row) {
        return caseOf(row.scenario(), row.client());
    }

    /** The case of a scenario run for {@code client} ({@code held} of {@code held.okhttp-virtual}); null: no client. */
    public static String caseOf(String scenario, String client) {
        String suffix = "." + client;
        return client != null && scenario.endsWith(suffix) ? scenario.substring(0, scenario.length() - suffix.length()) : scenario;
    }

    /** {@code 12 reset, 3 no_thread}, largest first; a dash for none. */
    private static String errors(ResultRow row) {
        if (row.errorsByClass().isEmpty()) {
            return row.errors() == 0 ? "-" : Long.toString(row.errors());
        }
        return row.errorsByClass().entrySet().stream()
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .map(e -> e.getValue() + " " + e.getKey().name().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining(", "));
    }

    /** The heap after each GC in the measured phase; {@code no gc} when none ran in it, so there is no such figure. */
    private static String heapAfterGc(JvmMetrics jvm, Function<JvmMetrics.Heap, Long> bytes) {
        if (jvm != null && jvm.heap() != null && bytes.apply(jvm.heap()) == null) {
            return "no gc";
        }
        return megabytes(jvm, j -> j.heap() == null ? null : bytes.apply(j.heap()));
    }

    private static String megabytes(JvmMetrics jvm, Function<JvmMetrics, Long> bytes) {
        return figure(jvm, j -> {
            Long value = bytes.apply(j);
            return value == null ? null : String.format(Locale.ROOT, "%.0f", value / MB);
        });
    }

    private static String figure(JvmMetrics jvm, Function<JvmMetrics, Object> value) {
        Object figure = jvm == null ? null : value.apply(jvm);
        return figure == null ? "-" : figure.toString();
    }
}
