package dev.gauntlet.runner.suite;


import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The CPUs and memory of each role, applied with cgroups (see {@code isolation.Isolation}). A suite
 * without this section keeps the default placement: the target on the lower half of the CPUs,
 * the generator on the upper half, pinned by {@code taskset}.
 */
public record Resources(RoleResources target, RoleResources generator) {
    public static final Resources NONE = new Resources(null, null);

    public Resources {
        target = target == null ? RoleResources.UNSET : target.checked("resources.target");
        generator = generator == null ? RoleResources.UNSET : generator.checked("resources.generator");
    }

    public boolean given() {
        return !target.equals(RoleResources.UNSET) || !generator.equals(RoleResources.UNSET);
    }

    /**
     * One role's share of the machine; every field is optional.
     *
     * @param cpus     a cpuset list: {@code "0"}, {@code "0-1"}, {@code "0,2-3"}; absent: the role's default half
     * @param cpuQuota CPUs' worth of time per period (CFS quota), such as {@code 0.5}; absent: no quota
     * @param memory   the memory limit (heap, off-heap and page cache; no swap): {@code 512m}, {@code 2g},
     *                 or bytes; absent: no limit
     */
    public record RoleResources(String cpus, Double cpuQuota, String memory) {
        static final RoleResources UNSET = new RoleResources(null, null, null);
        private static final String CPU_LIST = "\\d{1,4}(-\\d{1,4})?(,\\d{1,4}(-\\d{1,4})?)*";
        private static final Pattern SIZE = Pattern.compile("(\\d+)([kmgKMG]?)");
        /** Below this a JVM cannot even start; a smaller figure is a typo. */
        static final long MIN_MEMORY_BYTES = 16L << 20;

        /** This role's resources, or a one-line error naming {@code where}'s field. */
        RoleResources checked(String where) {
            if (cpus != null && (!cpus.matches(CPU_LIST) || !ascending(cpus))) {
                throw new IllegalArgumentException(where + ".cpus must be a CPU list such as \"0\", \"0-1\" or \"0,2-3\", got '"
                        + cpus + "'");
            }
            if (cpuQuota != null && !(cpuQuota >= 0.01 && cpuQuota <= 1024)) {
                throw new IllegalArgumentException(where + ".cpuQuota must be CPUs' worth of time from 0.01 to 1024, such as 0.5, got "
                        + cpuQuota);
            }
            if (memory != null) {
                long bytes = parseBytes(memory);
                if (bytes < 0) {
                    throw new IllegalArgumentException(where + ".memory must be a size such as 512m or 2g, got '" + memory + "'");
                }
                if (bytes < MIN_MEMORY_BYTES) {
                    throw new IllegalArgumentException(where + ".memory must be at least 16m, got '" + memory + "'");
                }
            }
            return this;
        }

        /** The memory limit in bytes; -1 for none. */
        public long memoryBytes() {
            return memory == null ? -1 : parseBytes(memory);
        }

        /** {@code 512m} → 536870912 (powers of 1024); -1 when it is not a size. */
        static long parseBytes(String size) {
            Matcher m = SIZE.matcher(size.trim());
            if (!m.matches() || m.group(1).length() > 12) {
                return -1;
            }
            int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
                case "k" -> 10;
                case "m" -> 20;
                case "g" -> 30;
                default -> 0;
            };
            return Long.parseLong(m.group(1)) << shift;
        }

        private static boolean ascending(String cpuList) {
            for (String part : cpuList.split(",")) {
                String[] ends = part.split("-");
                if (ends.length == 2 && Integer.parseInt(ends[0]) > Integer.parseInt(ends[1])) {
                    return false;
                }
            }
            return true;
        }
    }
}
