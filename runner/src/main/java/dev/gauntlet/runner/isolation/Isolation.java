package dev.gauntlet.runner.isolation;

import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.suite.Resources;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How a suite's target and generator are kept apart: each role's CPUs, CPU quota and memory, and
 * the network between them. One place decides it; each role's {@link RolePlacement} starts its
 * processes accordingly.
 *
 * <pre>{@code
 * try (Isolation isolation = Isolation.plan(suite.resources(), Isolation.Network.NETNS)) {
 *     TargetLauncher targets = new TargetLauncher(home, catalogue, isolation.target(), options);
 *     GeneratorLauncher generator = new GeneratorLauncher(home, isolation.generator(), options);
 *     ...
 * }   // the namespace and the cgroups' directories are removed
 * }</pre>
 *
 * <ul>
 *   <li>A suite with a {@code resources} section: a cgroup per process in the v1 {@code cpuset},
 *       {@code cpu} and {@code memory} controllers ({@link CgroupsV1}); where they are not
 *       writable, {@code taskset} pins the CPUs and the quota and memory limit are not applied,
 *       with a note saying so.</li>
 *   <li>Otherwise, and for a role whose {@code cpus} the suite leaves out: with two CPUs or more,
 *       the target on the lower half, the generator on the upper half ({@code taskset} when no
 *       {@code resources} are given).</li>
 *   <li>{@link Network#NETNS}: the target in its own namespace behind a veth pair
 *       ({@link NetworkNamespace}); the default is loopback.</li>
 * </ul>
 */
public final class Isolation implements AutoCloseable {
    /** How load reaches the target. */
    public enum Network { LOOPBACK, NETNS }

    private final RolePlacement target;
    private final RolePlacement generator;
    private final CgroupsV1 cgroups;
    private final NetworkNamespace netns;
    private final List<String> notes;
    private final Thread hook = new Thread(this::removeGroups, "remove-cgroups");

    private Isolation(RolePlacement target, RolePlacement generator, CgroupsV1 cgroups, NetworkNamespace netns,
                      List<String> notes) {
        this.target = target;
        this.generator = generator;
        this.cgroups = cgroups;
        this.netns = netns;
        this.notes = List.copyOf(notes);
        if (cgroups != null) {
            Runtime.getRuntime().addShutdownHook(hook);
        }
    }

    /**
     * Decides the placement and creates the namespace when asked for; leftovers of runners that
     * were killed are removed first. Bad CPU numbers, or netns without root or {@code ip}: a
     * {@link UserError}.
     */
    public static Isolation plan(Resources resources, Network network) {
        List<String> notes = new ArrayList<>();
        if (network == Network.NETNS) {
            NetworkNamespace.requireRootAndIp();
        }
        String[] halves = defaultHalves();
        String targetCpus = cpusOf(resources.target(), halves[0], "resources.target.cpus");
        String generatorCpus = cpusOf(resources.generator(), halves[1], "resources.generator.cpus");
        RolePlacement.Mechanism mechanism;
        CgroupsV1 cgroups = null;
        if (resources.given()) {
            Optional<CgroupsV1> writable = CgroupsV1.writable();
            if (writable.isPresent()) {
                cgroups = writable.get();
                cgroups.removeLeftovers().forEach(group -> notes.add("removed the leftover cgroup " + group));
                mechanism = RolePlacement.Mechanism.CGROUP;
            } else {
                mechanism = onPath("taskset") ? RolePlacement.Mechanism.TASKSET : RolePlacement.Mechanism.NONE;
                notes.add(CgroupsV1.why() + ": " + (mechanism == RolePlacement.Mechanism.TASKSET
                        ? "CPUs pinned by taskset" : "CPUs not pinned (no taskset either)")
                        + "; cpuQuota and memory not applied");
            }
        } else if (onPath("taskset")) {
            mechanism = RolePlacement.Mechanism.TASKSET;
        } else {
            mechanism = RolePlacement.Mechanism.NONE;
            notes.add("no taskset: target and generator share every CPU");
        }
        if (mechanism == RolePlacement.Mechanism.TASKSET && (targetCpus.isEmpty() || generatorCpus.isEmpty())
                && !resources.given()) {
            mechanism = RolePlacement.Mechanism.NONE;
            notes.add("one CPU: target and generator share it");
        }
        NetworkNamespace netns = null;
        if (network == Network.NETNS) {
            NetworkNamespace.removeLeftovers().forEach(name -> notes.add("removed the leftover " + name));
            netns = NetworkNamespace.create();
        }
        boolean limited = mechanism == RolePlacement.Mechanism.CGROUP;
        return new Isolation(
                new RolePlacement("target", mechanism, targetCpus, limited ? resources.target().cpuQuota() : null,
                        limited ? resources.target().memoryBytes() : -1, cgroups, netns, true),
                new RolePlacement("generator", mechanism, generatorCpus, limited ? resources.generator().cpuQuota() : null,
                        limited ? resources.generator().memoryBytes() : -1, cgroups, netns, false),
                cgroups, netns, notes);
    }

    /** Today's default: no resources, loopback. */
    public static Isolation defaults() {
        return plan(Resources.NONE, Network.LOOPBACK);
    }

    /** Nothing placed: both roles run where the runner does, over loopback. */
    static Isolation none() {
        return new Isolation(RolePlacement.unplaced("target"), RolePlacement.unplaced("generator"), null, null, List.of());
    }

    public RolePlacement target() {
        return target;
    }

    public RolePlacement generator() {
        return generator;
    }

    public List<String> notes() {
        return notes;
    }

    /** The plan, for {@code suite.json}. */
    public Map<String, Object> describe() {
        Map<String, Object> described = new LinkedHashMap<>();
        described.put("target", target.describe());
        described.put("generator", generator.describe());
        described.put("network", netns == null ? Map.of("mode", "loopback") : netns.describe());
        described.put("notes", notes);
        return described;
    }

    /** The startup line's words, e.g. {@code target CPUs 0, generator CPU 1 (cgroup), over veth}. */
    public String summary() {
        String cpus = target.mechanism() == RolePlacement.Mechanism.NONE ? "not pinned"
                : "target " + target.cpus() + ", generator " + generator.cpus() + " (" + target.describe().get("mechanism") + ")";
        return cpus + (netns == null ? "" : ", over the veth of " + netns.name());
    }

    /** Removes the namespace and this runner's cgroups; a runner that ends otherwise does the same in a shutdown hook. */
    @Override
    public void close() {
        if (netns != null) {
            netns.close();
        }
        if (cgroups != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // The runner is exiting: the hook does the same.
            }
            removeGroups();
        }
    }

    /** Waits for the processes still stopping (SIGTERM, then SIGKILL after 5 s) to leave their groups. */
    private void removeGroups() {
        cgroups.removeOwn(PlacedProcess.STOP_TIMEOUT.toMillis() + 2_000);
    }

    static boolean isRoot() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    static boolean onPath(String program) {
        String path = System.getenv().getOrDefault("PATH", "") + File.pathSeparator + "/usr/sbin" + File.pathSeparator + "/sbin";
        return Arrays.stream(path.split(File.pathSeparator)).anyMatch(dir -> new File(dir, program).canExecute());
    }

    /** With two CPUs or more: the lower half and the upper half; else nothing pinned. */
    private static String[] defaultHalves() {
        int cpus = Runtime.getRuntime().availableProcessors();
        if (cpus < 2) {
            return new String[] {"", ""};
        }
        int half = cpus / 2;
        return new String[] {range(0, half - 1), range(half, cpus - 1)};
    }

    /** The role's CPU list, checked against the CPUs this runner may use. */
    private static String cpusOf(Resources.RoleResources resources, String fallback, String field) {
        if (resources.cpus() == null) {
            return fallback;
        }
        int cpus = Runtime.getRuntime().availableProcessors();
        BitSet listed = RolePlacement.cpuSet(resources.cpus());
        if (listed.length() > cpus) {
            throw new UserError(field + " '" + resources.cpus() + "' names CPU " + (listed.length() - 1) + ", but this machine has CPUs "
                    + range(0, cpus - 1));
        }
        return resources.cpus();
    }

    private static String range(int from, int to) {
        return from == to ? Integer.toString(from) : from + "-" + to;
    }
}
