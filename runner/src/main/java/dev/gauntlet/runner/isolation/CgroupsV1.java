package dev.gauntlet.runner.isolation;

import dev.gauntlet.runner.base.UserError;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cgroup v1 controllers Gauntlet places child processes with: {@code cpuset}, {@code cpu} and
 * {@code memory}, each mounted at {@code /sys/fs/cgroup/<controller>}. Groups go under a
 * {@code gauntlet} directory inside the runner's own group of each controller, so a child never
 * escapes the limits its runner runs under; each is named {@code <runnerPid>-<role>-<n>}.
 *
 * <pre>{@code
 * CgroupsV1 cgroups = CgroupsV1.writable().orElseThrow();
 * CgroupsV1.Group group = cgroups.create("target", "0", 0.5, 256L << 20);
 * // start the child through group.enterPrefix(); after it exits:
 * boolean oomKilled = group.oomKilled();
 * group.remove();
 * }</pre>
 */
final class CgroupsV1 {
    static final List<String> CONTROLLERS = List.of("cpuset", "cpu", "memory");
    private static final Path ROOT = Path.of("/sys/fs/cgroup");
    private static final String DIR = "gauntlet";
    private static final long CFS_PERIOD_US = 100_000;
    private static final Pattern GROUP_NAME = Pattern.compile("(\\d+)-[a-z]+-\\d+");
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    /** Each controller's {@code gauntlet} directory. */
    private final Map<String, Path> bases;

    private CgroupsV1(Map<String, Path> bases) {
        this.bases = bases;
    }

    /** The three controllers, when each is a v1 mount this process may create groups in; else why not. */
    static Optional<CgroupsV1> writable() {
        return why().isEmpty() ? Optional.of(new CgroupsV1(basesOfThisProcess())) : Optional.empty();
    }

    /** Why cgroups cannot be used here ({@code ""}: they can). */
    static String why() {
        for (String controller : CONTROLLERS) {
            Path mount = ROOT.resolve(controller);
            if (!Files.isRegularFile(mount.resolve(controlFile(controller)))) {
                return "no cgroup v1 " + controller + " controller at " + mount;
            }
        }
        Map<String, Path> bases = basesOfThisProcess();
        for (Map.Entry<String, Path> base : bases.entrySet()) {
            if (!Files.isWritable(base.getValue().getParent())) {
                return "cannot create cgroups in " + base.getValue().getParent() + " (not root?)";
            }
        }
        return "";
    }

    /** Creates a fresh group in each controller for one process of {@code role}; absent limits are left open. */
    Group create(String role, String cpus, Double cpuQuota, long memoryBytes) {
        String name = ProcessHandle.current().pid() + "-" + role + "-" + SEQUENCE.incrementAndGet();
        Map<String, Path> dirs = new LinkedHashMap<>();
        try {
            for (Map.Entry<String, Path> base : bases.entrySet()) {
                prepareBase(base.getKey(), base.getValue());
                Path dir = Files.createDirectory(base.getValue().resolve(name));
                dirs.put(base.getKey(), dir);
            }
            Path cpuset = dirs.get("cpuset");
            write(cpuset.resolve("cpuset.cpus"), cpus.isEmpty() ? read(cpuset.getParent().resolve("cpuset.cpus")) : cpus);
            write(cpuset.resolve("cpuset.mems"), read(cpuset.getParent().resolve("cpuset.mems")));
            if (cpuQuota != null) {
                Path cpu = dirs.get("cpu");
                write(cpu.resolve("cpu.cfs_period_us"), Long.toString(CFS_PERIOD_US));
                write(cpu.resolve("cpu.cfs_quota_us"), Long.toString(Math.round(cpuQuota * CFS_PERIOD_US)));
            }
            if (memoryBytes > 0) {
                Path memory = dirs.get("memory");
                write(memory.resolve("memory.limit_in_bytes"), Long.toString(memoryBytes));
                // Where swap is accounted, memory + swap gets the same limit: the process cannot swap its way past it.
                Path memsw = memory.resolve("memory.memsw.limit_in_bytes");
                if (Files.exists(memsw)) {
                    write(memsw, Long.toString(memoryBytes));
                }
            }
            return new Group(dirs);
        } catch (IOException e) {
            new Group(dirs).remove();
            throw new UserError("cannot set up the " + role + "'s cgroups (" + e.getMessage()
                    + "); remove the suite's resources section to pin by taskset only");
        }
    }

    /**
     * Removes the groups of runners that are gone (killed before they could clean up), ending the
     * processes still in them: stale benchmark JVMs would disturb every measurement after them.
     * Returns the groups removed.
     */
    List<Path> removeLeftovers() {
        List<Path> removed = new ArrayList<>();
        for (Path base : bases.values()) {
            if (!Files.isDirectory(base)) {
                continue;
            }
            try (DirectoryStream<Path> groups = Files.newDirectoryStream(base, Files::isDirectory)) {
                for (Path group : groups) {
                    Matcher m = GROUP_NAME.matcher(group.getFileName().toString());
                    if (m.matches() && ProcessHandle.of(Long.parseLong(m.group(1))).isEmpty()) {
                        killAll(group);
                        if (rmdir(group)) {
                            removed.add(group);
                        }
                    }
                }
            } catch (IOException e) {
                // Unreadable: nothing of ours to remove there.
            }
        }
        return removed;
    }

    /**
     * Removes this runner's groups, each once its processes have exited (they are being stopped;
     * any still there after {@code waitMs} is killed), then each controller's {@code gauntlet}
     * directory if no other runner's group is in it.
     */
    void removeOwn(long waitMs) {
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        String own = ProcessHandle.current().pid() + "-";
        for (Path base : bases.values()) {
            if (!Files.isDirectory(base)) {
                continue;
            }
            try (DirectoryStream<Path> groups = Files.newDirectoryStream(base, dir -> dir.getFileName().toString().startsWith(own))) {
                for (Path group : groups) {
                    while (!isEmpty(group) && System.nanoTime() < deadlineNs) {
                        TimeUnit.MILLISECONDS.sleep(50);
                    }
                    killAll(group);
                    rmdir(group);
                }
            } catch (IOException e) {
                // Gone meanwhile.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            rmdir(base);
        }
    }

    private static boolean isEmpty(Path group) {
        try {
            return Files.readString(group.resolve("cgroup.procs"), StandardCharsets.US_ASCII).isBlank();
        } catch (IOException e) {
            return true;
        }
    }

    /**
     * The groups of one process across the controllers, from creation until {@link #remove()}.
     *
     * @param dirs the group's directory per controller
     */
    record Group(Map<String, Path> dirs) {

        /**
         * The command prefix that moves the process into the groups before it runs the command: a
         * shell writes its own PID into each {@code cgroup.procs}, then execs, so the command keeps
         * that PID (the runner's {@code process.pid()} is the JVM's).
         */
        List<String> enterPrefix() {
            List<String> prefix = new ArrayList<>(List.of("/bin/sh", "-c",
                    "while [ \"$1\" != -- ]; do echo $$ > \"$1\" || exit 125; shift; done; shift; exec \"$@\"", "sh"));
            dirs.values().forEach(dir -> prefix.add(dir.resolve("cgroup.procs").toString()));
            prefix.add("--");
            return prefix;
        }

        /** Whether the kernel's OOM killer ended a process of this group (the memory limit was hit and could not be reclaimed). */
        boolean oomKilled() {
            Path memory = dirs.get("memory");
            if (memory == null) {
                return false;
            }
            try {
                for (String line : Files.readAllLines(memory.resolve("memory.oom_control"), StandardCharsets.US_ASCII)) {
                    if (line.startsWith("oom_kill ")) {
                        return Long.parseLong(line.substring("oom_kill ".length()).trim()) > 0;
                    }
                }
                // Kernels before 4.13 do not count OOM kills: a hit limit is the nearest evidence.
                return Long.parseLong(read(memory.resolve("memory.failcnt"))) > 0;
            } catch (IOException | NumberFormatException e) {
                return false;
            }
        }

        /** Removes the groups; a group that still holds a process (exiting) is retried for up to a second. */
        void remove() {
            for (Path dir : dirs.values()) {
                for (int attempt = 0; attempt < 20 && Files.exists(dir) && !rmdir(dir); attempt++) {
                    try {
                        TimeUnit.MILLISECONDS.sleep(50);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }
    }

    /**
     * What a running process's groups enforce, read back from {@code /proc/PID/cgroup} and the
     * groups' files: the controller's group path and its limits, keyed by file name.
     */
    static Map<String, Object> readBack(long pid) {
        Map<String, Object> applied = new LinkedHashMap<>();
        Map<String, String> paths = groupPaths(Path.of("/proc", Long.toString(pid), "cgroup"));
        for (String controller : CONTROLLERS) {
            String path = paths.get(controller);
            if (path == null) {
                continue;
            }
            Map<String, String> files = new LinkedHashMap<>();
            files.put("path", path);
            Path dir = ROOT.resolve(controller).resolve(path.substring(1));
            List<String> names = switch (controller) {
                case "cpuset" -> List.of("cpuset.cpus", "cpuset.mems");
                case "cpu" -> List.of("cpu.cfs_quota_us", "cpu.cfs_period_us");
                default -> List.of("memory.limit_in_bytes", "memory.memsw.limit_in_bytes");
            };
            for (String name : names) {
                try {
                    files.put(name, read(dir.resolve(name)));
                } catch (IOException e) {
                    // Absent on this kernel (memsw without swap accounting): not recorded.
                }
            }
            applied.put(controller, files);
        }
        return applied;
    }

    /** {@code /proc/PID/cgroup}'s group path per v1 controller ({@code 4:memory:/a/b} → memory → /a/b). */
    static Map<String, String> groupPaths(Path procCgroup) {
        Map<String, String> paths = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(procCgroup, StandardCharsets.US_ASCII)) {
                String[] fields = line.split(":", 3);
                if (fields.length == 3) {
                    for (String controller : fields[1].split(",")) {
                        paths.put(controller, fields[2]);
                    }
                }
            }
        } catch (IOException e) {
            // The process is gone: nothing to read back.
        }
        return paths;
    }

    private static Map<String, Path> basesOfThisProcess() {
        Map<String, String> own = groupPaths(Path.of("/proc/self/cgroup"));
        Map<String, Path> bases = new LinkedHashMap<>();
        for (String controller : CONTROLLERS) {
            String path = own.getOrDefault(controller, "/");
            bases.put(controller, ROOT.resolve(controller).resolve(path.substring(1)).resolve(DIR));
        }
        return bases;
    }

    /** Creates the base if needed; a new cpuset group has no CPUs nor memory nodes until given its parent's. */
    private static void prepareBase(String controller, Path base) throws IOException {
        Files.createDirectories(base);
        if (controller.equals("cpuset")) {
            for (String file : List.of("cpuset.cpus", "cpuset.mems")) {
                if (read(base.resolve(file)).isEmpty()) {
                    write(base.resolve(file), read(base.getParent().resolve(file)));
                }
            }
        }
    }

    private static void killAll(Path group) {
        try {
            for (String pid : Files.readAllLines(group.resolve("cgroup.procs"), StandardCharsets.US_ASCII)) {
                ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(p -> {
                    p.destroyForcibly();
                    p.onExit().orTimeout(5, TimeUnit.SECONDS).exceptionally(e -> p).join();
                });
            }
        } catch (IOException | NumberFormatException e) {
            // Emptied meanwhile.
        }
    }

    private static String controlFile(String controller) {
        return switch (controller) {
            case "cpuset" -> "cpuset.cpus";
            case "cpu" -> "cpu.cfs_quota_us";
            default -> "memory.limit_in_bytes";
        };
    }

    private static boolean rmdir(Path dir) {
        try {
            Files.deleteIfExists(dir);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.US_ASCII).trim();
    }

    private static void write(Path file, String value) throws IOException {
        Files.writeString(file, value, StandardCharsets.US_ASCII);
    }
}
