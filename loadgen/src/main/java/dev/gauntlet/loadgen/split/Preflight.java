package dev.gauntlet.loadgen.split;

import dev.gauntlet.api.ConnectionBudget;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.Numbers;
import dev.gauntlet.loadgen.failure.GeneratorException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Checks a spec against the machine's limits before anything is sent: open files, ephemeral
 * ports per source address and {@code somaxconn}, and an open loop's rate against what one
 * process can schedule. An impossible run is refused with the numbers and the way out; a merely
 * risky one gets a warning.
 *
 * <pre>{@code
 * Preflight.Plan plan = Preflight.check(spec, HostLimits.read());   // throws GeneratorException
 * int maxConnections = plan.maxConnections();
 * }</pre>
 */
public final class Preflight {
    /**
     * An open loop's rate one generator process is given at most: a request every 100 ns. Far above
     * what one process sends (a lean engine thread sends a few hundred thousand a second), so it
     * never binds a real run; below it the schedule's nanosecond offsets stay exact to 1 %, and
     * what the engines cannot send fills their bounded queue and is dropped and counted
     * ({@link dev.gauntlet.loadgen.transport.Engine#PENDING_PER_PROCESS}). Above it, nothing is started.
     */
    static final double MAX_RATE_PER_PROCESS = 10_000_000;

    private Preflight() {
    }

    /** The connection limit this process runs with, and what deserves a warning. */
    public record Plan(int maxConnections, List<String> warnings) {
    }

    /**
     * Refuses an open loop whose rate, split over the spec's processes, is more than one process
     * can schedule ({@link #MAX_RATE_PER_PROCESS}), naming the processes it would take.
     *
     * @param spec a whole load, or a shard's share of one (its rate split over its own processes)
     */
    public static void checkRate(LoadSpec spec) {
        double ratePerSec = spec.model().scheduledRatePerSec();
        if (ratePerSec / spec.processes() > MAX_RATE_PER_PROCESS) {
            long processes = (long) Math.ceil(ratePerSec / MAX_RATE_PER_PROCESS);
            throw new GeneratorException(String.format(Locale.ROOT, "a rate of %s requests/s over %d process%s is "
                            + "more than one generator process can schedule, %s/s at most (a request every %.0f ns): %s",
                    Numbers.compact(ratePerSec), spec.processes(), spec.processes() == 1 ? "" : "es",
                    Numbers.compact(MAX_RATE_PER_PROCESS), 1e9 / MAX_RATE_PER_PROCESS, processes <= LoadSpec.MAX_PROCESSES
                            ? "split it with --processes " + processes + " or more, or lower the rate"
                            : "lower the rate; split over the most processes, " + LoadSpec.MAX_PROCESSES + ", it is still more"));
        }
    }

    public static Plan check(LoadSpec spec, HostLimits limits) {
        ConnectionBudget budget = new ConnectionBudget(limits.openFiles(), limits.ephemeralPorts(),
                spec.sourceAddresses().size(), spec.threads());
        long fileBudget = budget.files();
        int sources = Math.max(1, spec.sourceAddresses().size());
        long portBudget = budget.ports();
        List<String> warnings = new ArrayList<>();
        long needed = spec.model().connectionsOpened(spec.maxConnections());
        if (needed == 0) {
            // Open loop, limit left to the machine.
            return new Plan((int) Math.min(Integer.MAX_VALUE, Math.min(fileBudget, portBudget)), warnings);
        }
        if (needed > fileBudget) {
            long total = needed * spec.processes();
            long processes = (total + fileBudget - 1) / Math.max(1, fileBudget);
            throw new GeneratorException(String.format(Locale.ROOT,
                    "%d connections need %d open files, but a process may open %d here (%d reserved for its JVM) and "
                            + "the limit cannot be raised: %s",
                    needed, needed, limits.openFiles(), budget.reservedFiles(),
                    processes <= LoadSpec.MAX_PROCESSES ? "split the load with --processes " + processes + ", or use fewer connections"
                            : "use fewer connections; split over the most processes, " + LoadSpec.MAX_PROCESSES + ", they are still too many"));
        }
        if (needed > portBudget) {
            long addresses = (needed + limits.ephemeralPorts() - 1) / limits.ephemeralPorts();
            throw new GeneratorException(String.format(Locale.ROOT,
                    "%d connections to one host:port need %d local ports, but the ephemeral range %d-%d gives %d per "
                            + "source address (%d in use): spread them with --source-addresses 127.0.0.1-127.0.0.%d",
                    needed, needed, limits.ephemeralLow(), limits.ephemeralHigh(), limits.ephemeralPorts(), sources,
                    Math.min(254, addresses)));
        }
        if (spec.model().holdsRequests() && needed > limits.somaxconn()) {
            warnings.add("net.core.somaxconn is " + limits.somaxconn() + ": a server's accept backlog holds at most that "
                    + "many connections not yet accepted, whatever it asks for");
        }
        return new Plan((int) needed, warnings);
    }
}
