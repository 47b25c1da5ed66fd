package dev.gauntlet.runner.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.Json;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The CPUs each role was given, as suite.json's environment records them, and JFR's share of the machine rescaled to them. */
class CpusGivenTest {

    @Test
    void aRolePinnedToOneCpuOfTwoReadsTwiceTheMachinesShare() throws Exception {
        CpusGiven given = CpusGiven.of(environment("""
                {"cpus": 2, "isolation": {"target": {"mechanism": "taskset", "cpus": "0"},
                                          "generator": {"mechanism": "taskset", "cpus": "1"}}}"""));

        assertThat(given.shareOf("target", 50)).isEqualTo(100);
        assertThat(given.describe("target")).isEqualTo("1 of 2 CPUs");
    }

    /** suite.json writes an unpinned role's CPU set as "all": the machine's, not one CPU. */
    @Test
    void anUnpinnedRoleHasTheMachinesCpus() throws Exception {
        CpusGiven given = CpusGiven.of(environment("""
                {"cpus": 2, "isolation": {"target": {"mechanism": "none", "cpus": "all"}}}"""));

        assertThat(given.shareOf("target", 51.5)).isEqualTo(51.5);
        assertThat(given.describe("target")).isEqualTo("2 of 2 CPUs");
        assertThat(given.shareOf("generator", 40)).as("a role without a placement").isEqualTo(40);
    }

    @Test
    void aCpuSetsSizeLessItsQuota() throws Exception {
        CpusGiven given = CpusGiven.of(environment("""
                {"cpus": 8, "isolation": {"target": {"mechanism": "cgroup", "cpus": "0,2-3", "cpuQuota": 1.5},
                                          "generator": {"mechanism": "cgroup", "cpus": "4-7"}}}"""));

        assertThat(given.describe("target")).isEqualTo("1.5 of 8 CPUs");
        assertThat(given.shareOf("target", 15)).isCloseTo(80, within(1e-9));
        assertThat(given.describe("generator")).isEqualTo("4 of 8 CPUs");
    }

    /** A pod's JVM sees its container: its load is already a share of its limit, which is said. */
    @Test
    void aPodsShareIsOfItsLimit() throws Exception {
        CpusGiven given = CpusGiven.of(environment("""
                {"cpus": 2, "isolation": {"mechanism": "kubernetes", "target": {"cpu": "1500m"}, "generator": {"cpu": "2"}}}"""));

        assertThat(given.shareOf("target", 40)).isEqualTo(40);
        assertThat(given.describe("target")).isEqualTo("1.5 CPUs, its pod's limit, on a node of its own");
        assertThat(given.describe("generator")).isEqualTo("2 CPUs, its pod's limit, on a node of its own");
    }

    @Test
    void withoutAnEnvironmentTheShareIsTheMachines() throws Exception {
        CpusGiven given = CpusGiven.of(environment("{}"));

        assertThat(given.shareOf("target", 30)).isEqualTo(30);
        assertThat(given.describe("target")).isEqualTo("CPUs not recorded: % of the machine");
    }

    private static JsonNode environment(String json) throws Exception {
        return Json.json().readTree(json);
    }
}
