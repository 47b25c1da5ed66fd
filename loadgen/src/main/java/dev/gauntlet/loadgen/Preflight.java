package dev.gauntlet.loadgen;

import com.sun.management.UnixOperatingSystemMXBean;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Checks a spec against the machine's limits before anything is sent: open files, ephemeral
 * ports per source address and {@code somaxconn}. An impossible run is refused with the numbers
 * and the way out; a merely risky one gets a warning.
 *
 * <pre>{@code
 * Preflight.Plan plan = Preflight.check(spec, Preflight.Limits.read());   // throws GeneratorException
 * int maxConnections = plan.maxConnections();
 * }</pre>
 */
final class Preflight {
    /** Descriptors the JVM, the selector and the logs need besides the connections. */
    static final int RESERVED_FILES = 64;
    /** More than any {@code /proc/sys} file read here holds, so one read takes it whole. */
    static final int PROC_FILE_MAX_BYTES = 4_096;

    private Preflight() {
    }

    /** What this machine allows one process. */
    record Limits(long openFiles, long openFilesInUse, int ephemeralLow, int ephemeralHigh, int somaxconn) {
        int ephemeralPorts() {
            return ephemeralHigh - ephemeralLow + 1;
        }

        static Limits read() {
            long openFiles = Long.MAX_VALUE;
            long inUse = 0;
            if (ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix) {
                openFiles = unix.getMaxFileDescriptorCount();
                inUse = unix.getOpenFileDescriptorCount();
            }
            int[] range = readInts(Path.of("/proc/sys/net/ipv4/ip_local_port_range"), new int[] {32768, 60999});
            int somaxconn = readInts(Path.of("/proc/sys/net/core/somaxconn"), new int[] {4096})[0];
            return new Limits(openFiles, inUse, range[0], range[1], somaxconn);
        }

        private static int[] readInts(Path file, int[] fallback) {
            try (InputStream in = Files.newInputStream(file)) {
                return parseInts(in, fallback);
            } catch (IOException e) {
                return fallback;
            }
        }

        /**
         * The whitespace-separated integers of a {@code /proc/sys} file, or {@code fallback} when it
         * holds fewer than {@code fallback.length} or something else. Some kernels answer only a
         * file's first read and give EOF at any later offset ({@code Files.readString} asked for one
         * byte first and read "4096" as "4"), so the first read asks for more than such a file ever
         * holds; further reads serve streams that hand out less at a time.
         */
        static int[] parseInts(InputStream in, int[] fallback) throws IOException {
            byte[] buffer = new byte[PROC_FILE_MAX_BYTES];
            int length = 0;
            for (int n; length < buffer.length && (n = in.read(buffer, length, buffer.length - length)) > 0; ) {
                length += n;
            }
            String[] parts = new String(buffer, 0, length, StandardCharsets.US_ASCII).trim().split("\\s+");
            try {
                int[] values = new int[parts.length];
                for (int i = 0; i < parts.length; i++) {
                    values[i] = Integer.parseInt(parts[i]);
                }
                return values.length >= fallback.length ? values : fallback;
            } catch (NumberFormatException e) {
                return fallback;
            }
        }
    }

    /** The connection limit this process runs with, and what deserves a warning. */
    record Plan(int maxConnections, List<String> warnings) {
    }

    static Plan check(LoadSpec spec, Limits limits) {
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
