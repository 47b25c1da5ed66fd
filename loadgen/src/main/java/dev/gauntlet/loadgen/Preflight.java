package dev.gauntlet.loadgen;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Checks a spec against the machine's limits before anything is sent: open files, ephemeral
 * ports per source address and {@code somaxconn}. An impossible run is refused with the numbers
 * and the way out; a merely risky one gets a warning.
 *
 * <pre>{@code
 * Preflight.Plan plan = Preflight.check(spec, HostLimits.read());   // throws GeneratorException
 * int maxConnections = plan.maxConnections();
 * }</pre>
 */
final class Preflight {
    /** Descriptors the JVM, the selector and the logs need besides the connections. */
    static final int RESERVED_FILES = 64;

    private Preflight() {
    }

    /** The connection limit this process runs with, and what deserves a warning. */
    record Plan(int maxConnections, List<String> warnings) {
    }

    static Plan check(LoadSpec spec, HostLimits limits) {
        long fileBudget = Math.max(0, limits.openFiles() - limits.openFilesInUse() - RESERVED_FILES);
        int sources = Math.max(1, spec.sourceAddresses().size());
        long portBudget = (long) limits.ephemeralPorts() * sources;
        List<String> warnings = new ArrayList<>();
        long needed = switch (spec.model()) {
            case LoadModel.ClosedLoop closed -> closed.connections();
            case LoadModel.MaxConcurrency held -> held.requests();
            case LoadModel.OpenLoop open when open.connectionPolicy() == LoadModel.ConnectionPolicy.FIXED -> open.connections();
            case LoadModel.OpenLoop ignored -> spec.maxConnections();
        };
        if (needed == 0) {
            // Open loop, limit left to the machine.
            return new Plan((int) Math.min(Integer.MAX_VALUE, Math.min(fileBudget, portBudget)), warnings);
        }
        if (needed > fileBudget) {
            long total = needed * spec.processes();
            long processes = (total + fileBudget - 1) / Math.max(1, fileBudget);
            throw new GeneratorException(String.format(Locale.ROOT,
                    "%d connections need %d open files, but a process may open %d here (%d in use, %d reserved) and "
                            + "the limit cannot be raised: split the load with --processes %d, or use fewer connections",
                    needed, needed, limits.openFiles(), limits.openFilesInUse(), RESERVED_FILES, processes));
        }
        if (needed > portBudget) {
            long addresses = (needed + limits.ephemeralPorts() - 1) / limits.ephemeralPorts();
            throw new GeneratorException(String.format(Locale.ROOT,
                    "%d connections to one host:port need %d local ports, but the ephemeral range %d-%d gives %d per "
                            + "source address (%d in use): spread them with --source-addresses 127.0.0.1-127.0.0.%d",
                    needed, needed, limits.ephemeralLow(), limits.ephemeralHigh(), limits.ephemeralPorts(), sources,
                    Math.min(254, addresses)));
        }
        if (spec.model() instanceof LoadModel.MaxConcurrency && needed > limits.somaxconn()) {
            warnings.add("net.core.somaxconn is " + limits.somaxconn() + ": a server's accept backlog holds at most that "
                    + "many connections not yet accepted, whatever it asks for");
        }
        return new Plan((int) needed, warnings);
    }
}
