package dev.gauntlet.runner.isolation;


import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where the processes of one role (target or generator) run: their CPUs, CPU quota and memory
 * limit, and for the target its network namespace. Every child JVM of that role is started
 * through {@link #start(ProcessBuilder)}, which puts it in place before it runs.
 *
 * <pre>{@code
 * RolePlacement target = isolation.target();
 * PlacedProcess placed = target.start(new ProcessBuilder(command.toArgv()));
 * Map<String, Object> applied = target.readBack(placed.process().pid());   // what the kernel enforces
 * }</pre>
 *
 * @see Isolation
 */
public final class RolePlacement {
    /** The address a target binds and its generator loads on this machine, outside a network namespace. */
    public static final String LOOPBACK = "127.0.0.1";

    enum Mechanism { CGROUP, TASKSET, NONE }

    private final String role;
    private final Mechanism mechanism;
    private final String cpus;
    private final Double cpuQuota;
    private final long memoryBytes;
    private final CgroupsV1 cgroups;
    private final NetworkNamespace netns;
    private final boolean insideNetns;

    /**
     * @param cpus        a cpuset list; {@code ""}: all CPUs
     * @param memoryBytes -1: no limit
     * @param netns       the suite's namespace, or null for loopback
     * @param insideNetns whether this role runs inside {@code netns} (the target) or sends to it (the generator)
     */
    RolePlacement(String role, Mechanism mechanism, String cpus, Double cpuQuota, long memoryBytes, CgroupsV1 cgroups,
                  NetworkNamespace netns, boolean insideNetns) {
        this.role = role;
        this.mechanism = mechanism;
        this.cpus = cpus;
        this.cpuQuota = cpuQuota;
        this.memoryBytes = memoryBytes;
        this.cgroups = cgroups;
        this.netns = netns;
        this.insideNetns = netns != null && insideNetns;
    }

    /** No placement at all: the process runs where the runner does. */
    public static RolePlacement unplaced(String role) {
        return new RolePlacement(role, Mechanism.NONE, "", null, -1, null, null, false);
    }

    /** The same CPUs and limits in the runner's network namespace: the calibration's loopback echo beside the veth one. */
    public RolePlacement inRootNamespace() {
        return new RolePlacement(role, mechanism, cpus, cpuQuota, memoryBytes, cgroups, null, false);
    }

    public String cpus() {
        return mechanism == Mechanism.NONE ? "" : cpus;
    }

    /** The CPUs' worth of time this role may use: its quota, else the CPUs it is pinned to, else all of them. */
    public double cpuShare() {
        int pinned = cpus().isEmpty() ? Runtime.getRuntime().availableProcessors() : cpuSet(cpus).cardinality();
        return cpuQuota == null ? pinned : Math.min(pinned, cpuQuota);
    }

    /** The CPUs a cpuset list such as {@code "0,2-3"} names. */
    public static BitSet cpuSet(String cpuList) {
        BitSet listed = new BitSet();
        for (String part : cpuList.split(",")) {
            String[] ends = part.split("-");
            listed.set(Integer.parseInt(ends[0]), Integer.parseInt(ends[ends.length - 1]) + 1);
        }
        return listed;
    }

    Mechanism mechanism() {
        return mechanism;
    }

    /** The address this role's server binds and is reached at: 127.0.0.1, or the target's veth address. */
    public String host() {
        return insideNetns ? netns.targetAddress() : LOOPBACK;
    }

    /** Whether load and calibration cross the namespace's veth. */
    public boolean acrossVeth() {
        return netns != null;
    }

    /**
     * Starts {@code builder}'s command in place: in fresh cgroups (removed once it exits), pinned by
     * taskset, or as it is; inside the namespace for the target. A generator about to send into the
     * namespace first checks that the route goes through its veth.
     */
    public PlacedProcess start(ProcessBuilder builder) throws IOException {
        if (netns != null && !insideNetns) {
            netns.checkRoute();
        }
        List<String> argv = new ArrayList<>();
        CgroupsV1.Group group = null;
        switch (mechanism) {
            case CGROUP -> {
                group = cgroups.create(role, cpus, cpuQuota, memoryBytes);
                argv.addAll(group.enterPrefix());
            }
            case TASKSET -> {
                if (!cpus.isEmpty()) {
                    argv.addAll(List.of("taskset", "-c", cpus));
                }
            }
            case NONE -> {
            }
        }
        if (insideNetns) {
            argv.addAll(netns.execPrefix());
        }
        argv.addAll(builder.command());
        try {
            return PlacedProcess.of(builder.command(argv).start(), group, memoryBytes);
        } catch (IOException e) {
            if (group != null) {
                group.remove();
            }
            throw e;
        }
    }

    /**
     * What is in force for a running process of this role, read back from the kernel: its
     * cgroups and their limits, the CPUs it may run on, and its network namespace.
     */
    public Map<String, Object> readBack(long pid) {
        Map<String, Object> applied = new LinkedHashMap<>();
        applied.put("role", role);
        applied.put("pid", pid);
        applied.put("mechanism", mechanism.name().toLowerCase(Locale.ROOT));
        applied.put("cpusAllowed", statusField(pid, "Cpus_allowed_list").orElse("unknown"));
        if (mechanism == Mechanism.CGROUP) {
            applied.put("cgroups", CgroupsV1.readBack(pid));
        }
        if (insideNetns) {
            applied.put("networkNamespace", netns.holds(pid) ? netns.name() : "not in " + netns.name());
            applied.put("address", netns.targetAddress());
        } else {
            applied.put("networkNamespace", "root");
        }
        return applied;
    }

    /** What this role is given, for {@code suite.json}. */
    Map<String, Object> describe() {
        Map<String, Object> described = new LinkedHashMap<>();
        described.put("mechanism", mechanism.name().toLowerCase(Locale.ROOT));
        described.put("cpus", cpus().isEmpty() ? "all" : cpus);
        if (cpuQuota != null) {
            described.put("cpuQuota", cpuQuota);
        }
        if (memoryBytes > 0) {
            described.put("memoryBytes", memoryBytes);
        }
        return described;
    }

    /** A field of {@code /proc/PID/status}, such as {@code Cpus_allowed_list}; empty when it cannot be read. */
    public static Optional<String> statusField(long pid, String field) {
        try {
            return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"), StandardCharsets.US_ASCII).stream()
                    .filter(line -> line.startsWith(field + ":"))
                    .map(line -> line.substring(field.length() + 1).trim()).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
