package dev.gauntlet.runner.isolation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.runner.Main;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.execution.TargetLauncher;
import dev.gauntlet.runner.execution.TargetProcess;
import dev.gauntlet.runner.results.ResultRow;
import dev.gauntlet.runner.suite.Resources;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Isolation for real: cgroup limits read back from the kernel for a running target, a target
 * killed by its memory limit, and a run whose load crosses a veth pair into the target's own
 * network namespace. Needs root and cgroup v1 (skipped elsewhere).
 */
@Tag("alone") // pins CPUs
class IsolationIT {
    private static final long PID = ProcessHandle.current().pid();

    @TempDir
    Path work;

    @Test
    void theCgroupLimitsAreInForceForARealTarget() throws Exception {
        assumeCgroups();
        Resources resources = new Resources(new Resources.RoleResources("0", 0.5, "300m"), null);
        try (Isolation isolation = Isolation.plan(resources, Isolation.Network.LOOPBACK)) {
            TargetLauncher launcher = new TargetLauncher(GauntletHome.fromSystemProperty(), TargetCatalogue.builtIn(),
                    isolation.target(), List.of("-Xmx128m"));
            TargetProcess target = launcher.start("dummy", List.of(), work.resolve("target.log"));
            Path memoryGroup;
            try (target) {
                assertThat(ProcessHandle.of(target.pid()).orElseThrow().info().command().orElse(""))
                        .as("the PID the runner holds is the JVM's, not a wrapper's").endsWith("/bin/java");

                JsonNode applied = Json.json().valueToTree(target.isolation());
                assertThat(applied.path("mechanism").asText()).isEqualTo("cgroup");
                assertThat(applied.path("cpusAllowed").asText()).isEqualTo("0");
                JsonNode cgroups = applied.path("cgroups");
                assertThat(cgroups.path("cpuset").path("path").asText()).matches(".*/gauntlet/" + PID + "-target-\\d+");
                assertThat(cgroups.path("cpuset").path("cpuset.cpus").asText()).isEqualTo("0");
                assertThat(cgroups.path("cpu").path("cpu.cfs_quota_us").asText()).isEqualTo("50000");
                assertThat(cgroups.path("cpu").path("cpu.cfs_period_us").asText()).isEqualTo("100000");
                assertThat(cgroups.path("memory").path("memory.limit_in_bytes").asText()).isEqualTo(Long.toString(300L << 20));
                assertThat(applied.path("networkNamespace").asText()).isEqualTo("root");

                // The kernel's own view, beside what the runner read back.
                String procCgroup = Files.readString(Path.of("/proc", Long.toString(target.pid()), "cgroup"));
                String memoryPath = cgroups.path("memory").path("path").asText();
                assertThat(procCgroup).contains(":memory:" + memoryPath);
                memoryGroup = Path.of("/sys/fs/cgroup/memory" + memoryPath);
                assertThat(Files.readAllLines(memoryGroup.resolve("cgroup.procs"))).containsExactly(Long.toString(target.pid()));
            }
            target.placementRemoved().get(10, TimeUnit.SECONDS);
            assertThat(memoryGroup).as("the group is removed once its process exits").doesNotExist();
        }
    }

    @Test
    void theMemoryLimitKillsATargetThatExceedsItAndTheRowSaysSo() throws Exception {
        assumeCgroups();
        // A heap touched whole at start-up cannot fit in 200 MB: the kernel's OOM killer ends the JVM.
        Path suite = Files.writeString(work.resolve("oom.yaml"), """
                name: it-oom
                targets: [dummy]
                jvm: { target: [-Xms512m, -Xmx512m, -XX:+AlwaysPreTouch], generator: [-Xmx128m] }
                resources:
                  target: { memory: 200m }
                scenarios:
                  - name: closed
                    load: { type: closed, connections: 1 }
                    durationMs: 1000
                """);

        assertThat(Main.execute("run", "--suite", suite.toString(), "--results", work.resolve("results").toString(),
                "--no-calibration")).isEqualTo(2);

        List<ResultRow> rows = List.of(Json.json().readValue(onlyResultsDir().resolve("results.json").toFile(), ResultRow[].class));
        assertThat(rows).extracting(ResultRow::note).containsExactly("target did not start: killed by its 200 MB memory limit");
        assertNoGroupsLeft();
    }

    @Test
    void aNetnsRunAnswersThroughTheVethAndLeavesNothingBehind() throws Exception {
        assumeCgroups();
        Path suite = Files.writeString(work.resolve("netns.yaml"), """
                name: it-netns
                targets: [dummy]
                jvm: { target: [-Xmx128m], generator: [-Xmx128m] }
                resources:
                  target: { memory: 400m }
                scenarios:
                  - name: closed
                    load: { type: closed, connections: 2 }
                    warmupMs: 500
                    durationMs: 2000
                """);

        assertThat(Main.execute("run", "--suite", suite.toString(), "--results", work.resolve("results").toString(),
                "--network", "netns", "--calibration-seconds", "1")).isZero();

        Path dir = onlyResultsDir();
        List<ResultRow> rows = List.of(Json.json().readValue(dir.resolve("results.json").toFile(), ResultRow[].class));
        assertThat(rows).singleElement().satisfies(row -> {
            assertThat(row.requests()).isPositive();
            assertThat(row.errors()).isZero();
        });
        JsonNode isolation = Json.json().readTree(dir.resolve("runs/dummy/isolation.json").toFile());
        String address = isolation.path("address").asText();
        assertThat(isolation.path("networkNamespace").asText()).isEqualTo("gauntlet-" + PID);
        assertThat(address).startsWith("198.1");
        JsonNode network = Json.json().readTree(dir.resolve("suite.json").toFile()).path("environment").path("isolation").path("network");
        assertThat(network.path("targetVeth").asText()).isEqualTo("gnt" + PID + "t " + address + "/30");
        // The admin port on the veth address too, where the runner and the generator reach it (its resets needed the token).
        assertThat(Json.json().readTree(dir.resolve("runs/dummy/settings.json").toFile()).toString())
                .contains("\"bind\":\"" + address + "\",\"adminBind\":\"" + address + "\"");
        assertThat(Json.json().readTree(dir.resolve("runs/dummy/closed/1/spec.json").toFile()).toString())
                .contains("http://" + address + ":");
        JsonNode platform = Json.json().readTree(dir.resolve("suite.json").toFile()).path("platform");
        assertThat(platform.path("path").asText()).isEqualTo("veth");
        assertThat(platform.path("roundTrip").path("count").asLong()).isPositive();
        assertThat(platform.path("loopbackRoundTrip").path("count").asLong()).isPositive();

        assertThat(ip("netns", "list")).doesNotContain("gauntlet-" + PID);
        assertThat(ip("-o", "link", "show")).doesNotContain("gnt" + PID);
        assertNoGroupsLeft();
    }

    @Test
    void throughBothPrefixesThePidIsTheCommandsOwn() throws Exception {
        assumeCgroups();
        try (Isolation isolation = Isolation.plan(new Resources(new Resources.RoleResources("0", null, "100m"), null),
                Isolation.Network.NETNS)) {
            // The command prints its own PID once it runs: every prefix before it must have exec'd, not forked.
            PlacedProcess placed = isolation.target().start(new ProcessBuilder("/bin/sh", "-c", "echo $$; exec sleep 30"));
            try {
                String printedPid = new BufferedReader(new InputStreamReader(placed.process().getInputStream(),
                        StandardCharsets.US_ASCII)).readLine();
                assertThat(printedPid).isEqualTo(Long.toString(placed.process().pid()));
                JsonNode applied = Json.json().valueToTree(isolation.target().readBack(placed.process().pid()));
                assertThat(applied.path("cgroups").path("cpuset").path("path").asText()).startsWith("/gauntlet/" + PID + "-target-");
                assertThat(applied.path("networkNamespace").asText()).isEqualTo("gauntlet-" + PID);
            } finally {
                placed.process().destroyForcibly();
                placed.cleanedUp().get(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void leftoversOfAKilledRunnerAreRemovedAtStart() throws Exception {
        assumeCgroups();
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor(10, TimeUnit.SECONDS);
        long deadPid = gone.pid();
        ip("netns", "add", "gauntlet-" + deadPid);
        Path group = Path.of("/sys/fs/cgroup/cpuset/gauntlet/" + deadPid + "-target-1");
        Files.createDirectories(group);

        try (Isolation isolation = Isolation.plan(new Resources(new Resources.RoleResources(null, null, "100m"), null),
                Isolation.Network.NETNS)) {
            assertThat(isolation.notes()).contains("removed the leftover gauntlet-" + deadPid, "removed the leftover cgroup " + group);
            assertThat(ip("netns", "list")).doesNotContain("gauntlet-" + deadPid).contains("gauntlet-" + PID);
            assertThat(group).doesNotExist();
        }
        assertThat(ip("netns", "list")).doesNotContain("gauntlet-" + PID);
    }

    @Test
    void cpusBeyondTheMachineAreOneLineNamingTheField() {
        Resources resources = new Resources(null, new Resources.RoleResources("0-4095", null, null));

        assertThatThrownBy(() -> Isolation.plan(resources, Isolation.Network.LOOPBACK))
                .isInstanceOf(UserError.class)
                .hasMessageStartingWith("resources.generator.cpus '0-4095' names CPU 4095, but this machine has CPUs 0-");
    }

    private static void assumeCgroups() {
        assumeTrue(Isolation.isRoot(), "needs root");
        assumeTrue(CgroupsV1.why().isEmpty(), () -> "needs cgroup v1: " + CgroupsV1.why());
    }

    private static void assertNoGroupsLeft() throws IOException {
        for (String controller : CgroupsV1.CONTROLLERS) {
            String own = CgroupsV1.groupPaths(Path.of("/proc/self/cgroup")).getOrDefault(controller, "/");
            Path base = Path.of("/sys/fs/cgroup", controller).resolve(own.substring(1)).resolve("gauntlet");
            if (Files.isDirectory(base)) {
                try (Stream<Path> groups = Files.list(base)) {
                    assertThat(groups.filter(Files::isDirectory).map(p -> p.getFileName().toString()))
                            .as("groups left in %s", base).noneMatch(name -> name.startsWith(PID + "-"));
                }
            }
        }
    }

    private Path onlyResultsDir() throws IOException {
        try (Stream<Path> dirs = Files.list(work.resolve("results"))) {
            return dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
    }

    private static String ip(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        Process ip = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(ip.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(ip.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return out;
    }
}
