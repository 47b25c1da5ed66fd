package dev.gauntlet.hiccup;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;

/**
 * Who else had the CPUs this process may run on: the share of their time the hypervisor took
 * (steal) and the share other processes of this machine used. Linux's {@code /proc/stat} per CPU
 * against this process's own CPU time; on another system, or without {@code /proc}, both are 0.
 *
 * <pre>{@code
 * CpuAccounting cpus = CpuAccounting.ofThisProcess();
 * CpuAccounting.Shares shares = cpus.sinceLast();   // over the time since the previous call
 * }</pre>
 *
 * <p>Time the kernel spends on interrupts counts as busy: a process's own system time includes what
 * interrupts took while it ran. {@code /proc/stat} counts in ticks of 10 ms, so a second's shares
 * are good to about a hundredth per CPU.
 */
final class CpuAccounting {
    private static final Path STAT = Path.of("/proc/stat");
    private static final Path STATUS = Path.of("/proc/self/status");

    private final BitSet cpus;
    private final com.sun.management.OperatingSystemMXBean os;
    private Ticks last;
    private long lastOwnNs;

    /**
     * Shares of the CPUs' time over an interval, each 0 to 1.
     *
     * @param stolen  taken by the hypervisor for other machines
     * @param foreign used by other processes of this machine (and by interrupts while this process did not run)
     */
    record Shares(double stolen, double foreign) {
        static final Shares NONE = new Shares(0, 0);

        /** What is left to this process: 1 when nothing else took any. */
        double left() {
            return Math.max(0, 1 - stolen - foreign);
        }
    }

    private record Ticks(long total, long stolen, long busy) {
    }

    private CpuAccounting(BitSet cpus) {
        this.cpus = cpus;
        this.os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        this.last = read();
        this.lastOwnNs = os.getProcessCpuTime();
    }

    /** The CPUs this process may run on (its affinity); null when {@code /proc} cannot tell. */
    static CpuAccounting ofThisProcess() {
        try {
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return new CpuAccounting(parseList(line.substring(line.indexOf(':') + 1).trim()));
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux, or a /proc without these lines: the shares stay unknown.
        }
        return null;
    }

    /** The shares since the previous call (or since this was made). */
    Shares sinceLast() {
        Ticks now = read();
        long ownNs = os.getProcessCpuTime();
        if (now == null || last == null || now.total - last.total <= 0) {
            last = now == null ? last : now;
            lastOwnNs = ownNs;
            return Shares.NONE;
        }
        long total = now.total - last.total;
        // Ticks are 10 ms of one CPU: the process's own time in the same unit.
        double ownTicks = (ownNs - lastOwnNs) / 10_000_000.0;
        double stolen = (double) (now.stolen - last.stolen) / total;
        double foreign = Math.max(0, (now.busy - last.busy - ownTicks) / total);
        last = now;
        lastOwnNs = ownNs;
        return new Shares(Math.min(1, stolen), Math.min(1, foreign));
    }

    /** The CPUs' ticks summed: all, stolen, and busy (user, nice, system, irq, softirq; guest time is within user); null when unreadable. */
    private Ticks read() {
        long total = 0;
        long stolen = 0;
        long busy = 0;
        try {
            List<String> lines = Files.readAllLines(STAT);
            for (String line : lines) {
                if (!line.startsWith("cpu") || line.startsWith("cpu ")) {
                    continue;
                }
                String[] f = line.split("\\s+");
                if (!cpus.get(Integer.parseInt(f[0].substring(3)))) {
                    continue;
                }
                long user = Long.parseLong(f[1]);
                long nice = Long.parseLong(f[2]);
                long system = Long.parseLong(f[3]);
                long idle = Long.parseLong(f[4]);
                long iowait = Long.parseLong(f[5]);
                long irq = Long.parseLong(f[6]);
                long softirq = Long.parseLong(f[7]);
                long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
                total += user + nice + system + idle + iowait + irq + softirq + steal;
                stolen += steal;
                busy += user + nice + system + irq + softirq;
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return new Ticks(total, stolen, busy);
    }

    /** A kernel CPU list, {@code 0-3,6}. */
    static BitSet parseList(String list) {
        BitSet set = new BitSet();
        for (String part : list.split(",")) {
            String[] range = part.trim().split("-");
            int from = Integer.parseInt(range[0]);
            int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
            set.set(from, to + 1);
        }
        return set;
    }
}
