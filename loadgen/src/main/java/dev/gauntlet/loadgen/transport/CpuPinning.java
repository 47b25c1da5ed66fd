package dev.gauntlet.loadgen.transport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether this process runs on CPUs set apart for it: its CPU affinity (taskset, a cpuset, the runner's placement)
 * narrower than the machine's online CPUs. Where it is not, it may share its CPUs with the target, and a loop that spins
 * would take the target's time. Linux only: elsewhere, and when the files cannot be read, not set apart.
 */
final class CpuPinning {
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final Path ONLINE = Path.of("/sys/devices/system/cpu/online");
    private static final String ALLOWED = "Cpus_allowed_list:";

    private CpuPinning() {
    }

    static boolean setApart() {
        try {
            String allowed = Files.readAllLines(STATUS).stream().filter(line -> line.startsWith(ALLOWED))
                    .map(line -> line.substring(ALLOWED.length()).trim()).findFirst().orElse("");
            int allowedCount = count(allowed);
            return allowedCount > 0 && allowedCount < count(Files.readString(ONLINE).trim());
        } catch (IOException | RuntimeException notLinux) {
            return false;
        }
    }

    /** The CPUs a kernel CPU list names ("0-3,6,8-9": 7); -1 when it is not one. */
    static int count(String list) {
        if (list.isEmpty()) {
            return -1;
        }
        int count = 0;
        for (String part : list.split(",")) {
            String[] range = part.split("-", -1);
            try {
                int first = Integer.parseInt(range[0]);
                int last = range.length == 2 ? Integer.parseInt(range[1]) : first;
                if (range.length > 2 || last < first) {
                    return -1;
                }
                count += last - first + 1;
            } catch (NumberFormatException e) {
                return -1;
            }
        }
        return count;
    }
}
