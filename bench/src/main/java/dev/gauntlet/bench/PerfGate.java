package dev.gauntlet.bench;

import dev.gauntlet.api.CpuModel;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * The performance gate: Gauntlet's generator CPU per request against wrk2's (open loop at a rate) and wrk's (closed
 * loop), both running at once on the client CPU, as a ratio with its 95 % interval over such pairs; fails when a ratio
 * is worse than its bound in docs/benchmarks.md beyond that interval, when its interval is too wide to see a 10 %
 * change, or when a case could not be measured. bench/perf-gate.sh starts an nginx for each client and runs this
 * pinned to the client CPU.
 *
 * <pre>
 * java -cp 'bench/target/gauntlet-bench.jar:bench/target/lib/*' dev.gauntlet.bench.PerfGate \
 *      --url http://127.0.0.1:18090/hello --status-url http://127.0.0.1:18090/nginx_status \
 *      --peer-url http://127.0.0.1:18091/hello --peer-status-url http://127.0.0.1:18091/nginx_status \
 *      --wrk2 /tmp/wrk2/wrk --wrk /usr/bin/wrk --bounds docs/benchmarks.md
 * </pre>
 *
 * <p>Exit 0: every case within its bound; 1: a case failed; 2: bad input.
 */
@Command(name = "perf-gate", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Gauntlet's CPU per request against wrk2's and wrk's, both running at once, each ratio with its "
                + "95 % interval over such pairs, against the bounds in docs/benchmarks.md.")
public final class PerfGate implements Callable<Integer> {
    @Option(names = "--url", required = true, description = "nginx's hello URL on 127.0.0.1") URI url;
    @Option(names = "--status-url", required = true, description = "nginx's stub_status URL") URI statusUrl;
    @Option(names = "--peer-url", required = true, description = "the peer's nginx's hello URL on 127.0.0.1") URI peerUrl;
    @Option(names = "--peer-status-url", required = true, description = "the peer's nginx's stub_status URL") URI peerStatusUrl;
    @Option(names = "--wrk2", required = true, description = "wrk2's binary") Path wrk2;
    @Option(names = "--wrk", required = true, description = "wrk's binary") Path wrk;
    @Option(names = "--bounds", required = true, description = "the file with the bounds table (docs/benchmarks.md)") Path boundsFile;
    @Option(names = "--cases", split = ",", description = "cases to run, in this order (default: all: closed, open-50k, open-10k)") List<String> caseNames;
    @Option(names = "--seconds", description = "time for the measured pairs, all cases together (default: ${DEFAULT-VALUE})") int seconds = 70;
    @Option(names = "--min-pairs", description = "pairs per case before its interval is judged, 6 at least (default: ${DEFAULT-VALUE})") int minPairs = 12;
    @Option(names = "--max-width", description = "widest interval that still decides, relative to the ratio (default: ${DEFAULT-VALUE})") double maxWidth = 0.10;

    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new PerfGate());
        cli.setParameterExceptionHandler((e, a) -> {
            System.err.println("perf-gate: " + e.getMessage() + " (see --help)");
            return 2;
        });
        System.exit(cli.execute(args));
    }

    @Override
    public Integer call() throws IOException {
        List<GateCase> cases;
        Map<String, Double> bounds;
        try {
            cases = caseNames == null ? GateCase.ALL : caseNames.stream().map(GateCase::named).toList();
            String cpu = CpuModel.read();
            bounds = GateBounds.parse(Files.readAllLines(boundsFile), cpu);
            if (bounds.isEmpty()) {
                throw new IllegalArgumentException(boundsFile + " has no bounds for this CPU (" + cpu + "): a bound holds "
                        + "for the processor it was measured on; run the gate here on a quiet machine a few times and add "
                        + "rows for it with its medians");
            }
            if (minPairs < RatioInterval.MIN_PAIRS || seconds < 1 || seconds > GateCase.PEER_SECONDS || !(maxWidth > 0)) {
                throw new IllegalArgumentException("--min-pairs must be >= " + RatioInterval.MIN_PAIRS
                        + ", --seconds between 1 and " + GateCase.PEER_SECONDS + " and --max-width > 0");
            }
            for (String name : cases.stream().map(GateCase::name).toList()) {
                if (!bounds.containsKey(name)) {
                    throw new IllegalArgumentException(boundsFile + " has no bound for " + name + " on this CPU");
                }
            }
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("perf-gate: " + e.getMessage());
            return 2;
        }
        Path scratch = Files.createTempDirectory("perf-gate");
        ClientRuns runs = new ClientRuns(url, new NginxCounter(statusUrl), peerUrl, new NginxCounter(peerStatusUrl), wrk2, wrk,
                scratch);

        Map<GateCase, List<Double>> ratios = new LinkedHashMap<>();
        Map<GateCase, String> failures = new LinkedHashMap<>();
        long endNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        // One case after the other, each with an equal share of the time left: what a case decided early leaves goes
        // to the cases after it (the list ends with the noisiest).
        for (int i = 0; i < cases.size(); i++) {
            GateCase c = cases.get(i);
            List<Double> caseRatios = new ArrayList<>();
            ratios.put(c, caseRatios);
            long caseEndNs = System.nanoTime() + (endNs - System.nanoTime()) / (cases.size() - i);
            try {
                measure(runs, c, caseRatios, caseEndNs);
            } catch (RuntimeException e) {
                failures.put(c, e.getMessage());
            }
        }

        System.out.println();
        boolean pass = true;
        for (GateCase c : cases) {
            String verdict = verdict(c, ratios.get(c), bounds.get(c.name()), failures.get(c));
            pass &= verdict.startsWith("pass");
            System.out.println(verdict);
        }
        System.out.println(pass ? "perf-gate: pass" : "perf-gate: FAIL");
        return pass ? 0 : 1;
    }

    /** Warms Gauntlet's JIT on the case, then adds pairs beside one running peer until decided or {@code endNs}. */
    private void measure(ClientRuns runs, GateCase c, List<Double> caseRatios, long endNs) {
        System.out.print("warming Gauntlet's JIT on " + c.name() + " ... ");
        int warmRuns = runs.warm(c);
        System.out.println(warmRuns > 0 ? "quiet after " + warmRuns + " run(s)" : "still compiling after them");
        try (PeerProcess peer = runs.startPeer(c)) {
            while (System.nanoTime() < endNs && !(caseRatios.size() >= minPairs && decided(caseRatios))) {
                PairCost pair = runs.together(c, peer);
                String figures = String.format(Locale.ROOT, "Gauntlet %.2f µs/request (%,d requests), %s %.2f µs/request (%,d)",
                        pair.gauntlet().cpuNsPerRequest() / 1e3, pair.gauntlet().requests(), c.peer(),
                        pair.peer().cpuNsPerRequest() / 1e3, pair.peer().requests());
                String spoilt = pair.spoilt(c);
                if (spoilt != null) {
                    System.out.printf(Locale.ROOT, "%-9s pair left out, %s: %s%n", c.name(), spoilt, figures);
                    continue;
                }
                caseRatios.add(pair.ratio());
                System.out.printf(Locale.ROOT, "%-9s pair %2d: %s, ratio %.3f%n", c.name(), caseRatios.size(), figures,
                        pair.ratio());
            }
        }
    }

    private boolean decided(List<Double> ratios) {
        return RatioInterval.of(ratios.stream().mapToDouble(Double::doubleValue).toArray()).relativeWidth() <= maxWidth;
    }

    /** The case's line: its ratio, interval and bound, and whether it passes; fails closed on what it cannot judge. */
    String verdict(GateCase c, List<Double> ratios, double bound, String failure) {
        String head = String.format(Locale.ROOT, "%-9s Gauntlet/%s CPU per request", c.name(), c.peer());
        if (failure != null) {
            return "FAIL " + head + ": not measured: " + failure;
        }
        if (ratios.size() < RatioInterval.MIN_PAIRS) {
            return "FAIL " + head + ": " + ratios.size() + " pair(s) in the time given: raise --seconds";
        }
        RatioInterval r = RatioInterval.of(ratios.stream().mapToDouble(Double::doubleValue).toArray());
        String figures = String.format(Locale.ROOT, "%.3f (median; 95 %% interval %.3f–%.3f, %d pairs), bound %.3f",
                r.ratio(), r.low(), r.high(), r.pairs(), bound);
        if (r.low() > bound) {
            return "FAIL " + head + " " + figures + ": worse than the bound beyond the interval";
        }
        if (r.relativeWidth() > maxWidth) {
            return String.format(Locale.ROOT, "FAIL %s %s: the interval is %.0f %% wide, more than %.0f %%: too noisy to "
                    + "see a change that size; run again with nothing else on the machine", head, figures,
                    100 * r.relativeWidth(), 100 * maxWidth);
        }
        return "pass " + head + " " + figures;
    }
}
