package dev.gauntlet.loadgen.split;

import com.sun.management.UnixOperatingSystemMXBean;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What this machine allows one process: open files, the ephemeral port range that bounds the
 * connections to one host and port per source address, and the accept backlog's ceiling. The
 * generator checks a spec against them; the runner cuts a suite's connection counts to them.
 *
 * <pre>{@code
 * HostLimits here = HostLimits.read();
 * long connectionsPerAddress = here.ephemeralPorts();
 * }</pre>
 */
public record HostLimits(long openFiles, int ephemeralLow, int ephemeralHigh, int somaxconn) {
    /** More than any {@code /proc/sys} file read here holds, so one read takes it whole. */
    static final int PROC_FILE_MAX_BYTES = 4_096;

    public int ephemeralPorts() {
        return ephemeralHigh - ephemeralLow + 1;
    }

    public static HostLimits read() {
        long openFiles = Long.MAX_VALUE;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix) {
            openFiles = unix.getMaxFileDescriptorCount();
        }
        int[] range = readInts(Path.of("/proc/sys/net/ipv4/ip_local_port_range"), new int[] {32768, 60999});
        int somaxconn = readInts(Path.of("/proc/sys/net/core/somaxconn"), new int[] {4096})[0];
        return new HostLimits(openFiles, range[0], range[1], somaxconn);
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
