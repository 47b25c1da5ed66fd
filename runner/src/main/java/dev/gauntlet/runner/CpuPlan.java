package dev.gauntlet.runner;

import java.io.File;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Which CPUs the target and the generator run on. With two or more CPUs and {@code taskset}
 * present, the target gets the lower half and the generator the upper half, so they never compete
 * for a core; otherwise both float and the plan says so. What was applied is recorded in
 * {@code suite.json}.
 *
 * @param mechanism {@code taskset} or {@code none}
 * @param targetCpus a taskset CPU list such as {@code 0} or {@code 0-1}; empty when not pinned
 */
record CpuPlan(String mechanism, String targetCpus, String generatorCpus) {

    static CpuPlan forThisMachine() {
        int cpus = Runtime.getRuntime().availableProcessors();
        if (cpus < 2 || !onPath("taskset")) {
            return new CpuPlan("none", "", "");
        }
        int half = cpus / 2;
        return new CpuPlan("taskset", range(0, half - 1), range(half, cpus - 1));
    }

    static CpuPlan none() {
        return new CpuPlan("none", "", "");
    }

    /** The command prefix that pins a process to {@code cpus}, or nothing. */
    List<String> pin(String cpus) {
        return mechanism.equals("taskset") ? List.of("taskset", "-c", cpus) : List.of();
    }

    List<String> pinTarget() {
        return pin(targetCpus);
    }

    List<String> pinGenerator() {
        return pin(generatorCpus);
    }

    Map<String, String> describe() {
        return Map.of("mechanism", mechanism, "targetCpus", targetCpus, "generatorCpus", generatorCpus);
    }

    private static String range(int from, int to) {
        return from == to ? Integer.toString(from) : from + "-" + to;
    }

    private static boolean onPath(String program) {
        String path = System.getenv().getOrDefault("PATH", "");
        return Arrays.stream(path.split(File.pathSeparator)).anyMatch(dir -> new File(dir, program).canExecute());
    }
}
