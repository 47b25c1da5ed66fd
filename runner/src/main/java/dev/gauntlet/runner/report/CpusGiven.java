package dev.gauntlet.runner.report;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Locale;

/**
 * The CPUs each role was given, read from {@code suite.json}'s environment, and JFR's CPU load rescaled to them:
 *
 * <pre>{@code
 * CpusGiven given = CpusGiven.of(suiteJson.path("environment"));
 * given.shareOf("target", 50.0);   // 100.0 for a target pinned to one CPU of two
 * given.describe("target");        // "1 of 2 CPUs"
 * }</pre>
 *
 * JFR's {@code jdk.CPULoad} is a share of the whole machine; the page says a share of the CPUs the process was given
 * (its CPU set, less its quota where that is lower; a pod's CPU limit in a cluster), so that a saturated process
 * pinned to one CPU of two reads 100 %, not 50 %.
 *
 * @param machine   the machine's CPUs, NaN in a cluster, whose pods run on nodes the runner does not see
 * @param target    the CPUs the target was given
 * @param generator the CPUs the generator was given
 */
record CpusGiven(double machine, double target, double generator) {
    private static final String ALL = "all";

    static CpusGiven of(JsonNode environment) {
        JsonNode isolation = environment.path("isolation");
        if (isolation.path("mechanism").asText().equals("kubernetes")) {
            // A pod's JVM sees its own container: its CPU load is already a share of the pod's limit.
            return new CpusGiven(Double.NaN, podCpus(isolation.path("target")), podCpus(isolation.path("generator")));
        }
        double machine = environment.path("cpus").asDouble(Double.NaN);
        return new CpusGiven(machine, placedCpus(isolation.path("target"), machine), placedCpus(isolation.path("generator"), machine));
    }

    /** {@code percentOfMachine} (JFR's load) as a share of the CPUs {@code role} was given; unchanged when they are unknown. */
    double shareOf(String role, double percentOfMachine) {
        double given = given(role);
        return given > 0 && machine > 0 ? percentOfMachine * machine / given : percentOfMachine;
    }

    /** What a CPU share of {@code role} is a share of: {@code 1 of 2 CPUs}. */
    String describe(String role) {
        double given = given(role);
        if (Double.isNaN(given)) {
            return "CPUs not recorded: % of the machine";
        }
        if (Double.isNaN(machine)) {
            return number(given) + " CPUs, its pod's limit, on a node of its own";
        }
        return number(given) + " of " + number(machine) + " CPUs";
    }

    private double given(String role) {
        return role.equals("target") ? target : generator;
    }

    /**
     * The CPUs a placement may use: its CPU set's size ({@code "0,2-3"}; {@code "all"} or none: the machine's), less
     * its quota if lower.
     */
    static double placedCpus(JsonNode placement, double machine) {
        String cpus = placement.path("cpus").asText("");
        double set = cpus.isEmpty() || cpus.equals(ALL) ? machine : 0;
        if (set == 0) {
            for (String part : cpus.split(",")) {
                String[] range = part.trim().split("-");
                set += range.length == 2 ? Integer.parseInt(range[1]) - Integer.parseInt(range[0]) + 1 : 1;
            }
        }
        JsonNode quota = placement.path("cpuQuota");
        return quota.isNumber() ? Math.min(set, quota.asDouble()) : set;
    }

    /** A pod's CPU limit in Kubernetes' notation: {@code "2"} or {@code "1500m"}; NaN when not recorded. */
    static double podCpus(JsonNode pod) {
        String cpu = pod.path("cpu").asText("");
        if (cpu.isEmpty()) {
            return Double.NaN;
        }
        return cpu.endsWith("m") ? Double.parseDouble(cpu.substring(0, cpu.length() - 1)) / 1000 : Double.parseDouble(cpu);
    }

    private static String number(double cpus) {
        return cpus == Math.rint(cpus) ? String.valueOf((long) cpus) : String.format(Locale.ROOT, "%.2f", cpus).replaceAll("0+$", "");
    }
}
