package dev.gauntlet.runner.suite;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.Protocol;
import dev.gauntlet.api.SteadyRule;
import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.execution.ClientModules;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SuiteLoaderTest {
    /** The scenarios of a suite whose test is about the rest of it: one, s, two connections for a second. */
    private static final String ONE_CLOSED_SCENARIO = """
            scenarios:
              - name: s
                load: { type: closed, connections: 2 }
                durationMs: 1000
            """;


    @Test
    void protocolsRunEachTargetOncePerProtocolItServesAndSayWhatIsLeftOut() {
        Suite suite = SuiteLoader.parse("""
                name: mine
                targets: [dummy, jdk-httpserver-sync, netty-event-loop@h2c]
                protocols: [http1, https1, h2]
                scenarios:
                  - name: s
                    load: { type: closed, connections: 64 }
                    generator: { streams: 16 }
                    durationMs: 1000
                """.getBytes(StandardCharsets.UTF_8), "mine.yaml");
        TargetCatalogue catalogue = TargetCatalogue.builtIn();

        assertThat(suite.withCatalogue(catalogue).targets()).containsExactly("dummy@http1", "jdk-httpserver-sync@http1",
                "jdk-httpserver-sync@https1", "netty-event-loop@h2c");
        assertThat(suite.protocolsNotServed(catalogue)).containsExactly("dummy serves no https1, h2: left out",
                "jdk-httpserver-sync serves no h2: left out");
        assertThat(suite.scenarios().getFirst().template().streams()).isEqualTo(16);
    }

    @Test
    void protocolsBeyondHttp1StayOnThisMachine() {
        assertThatThrownBy(() -> parse("""
                name: mine
                targets: [dummy]
                protocols: [h2]
                placement: kubernetes
                """ + ONE_CLOSED_SCENARIO))
                .isInstanceOf(UserError.class).hasMessageContaining("protocols beyond http1 run on this machine");
    }


    @Test
    void theQuickSuiteHasAnOpenAndAClosedLoopScenario() {
        Suite quick = SuiteLoader.load("quick");

        assertThat(quick.targets()).contains("dummy", "jetty-handler-sync", "jetty-handler-virtual", "netty-event-loop");
        assertThat(quick.scenarios()).extracting(Suite.Scenario::load)
                .hasAtLeastOneElementOfType(LoadModel.OpenLoop.class)
                .hasAtLeastOneElementOfType(LoadModel.ClosedLoop.class);
        assertThat(quick.scenarios()).filteredOn(s -> s.load() instanceof LoadModel.OpenLoop)
                .extracting(Suite.Scenario::waitMs).containsOnly(100L);
    }

    @Test
    void eachOpenScenarioOfTheQuickSuiteStatesItsConnectionPolicy() throws Exception {
        try (InputStream in = SuiteLoader.class.getResourceAsStream(SuiteLoader.BUILT_IN_RESOURCES + "quick.yaml")) {
            JsonNode scenarios = Json.yaml().readTree(in).get("scenarios");
            assertThat(scenarios).filteredOn(s -> s.get("load").get("type").asText().equals("open")).isNotEmpty()
                    .allSatisfy(s -> assertThat(s.get("load").has("connectionPolicy")).as(s.get("name").asText()).isTrue());
        }
    }

    @Test
    void anOpenScenarioNamesItsConnectionPolicy() {
        Suite suite = parse("""
                name: mine
                targets: [dummy]
                scenarios:
                  - name: pool
                    load: { type: open, ratePerSec: 50000, connectionPolicy: FIXED, connections: 100 }
                    durationMs: 1000
                  - name: flood
                    load: { type: open, ratePerSec: 200, connectionPolicy: UNBOUNDED }
                    durationMs: 1000
                  - name: default
                    load: { type: open, ratePerSec: 200 }
                    durationMs: 1000
                """);

        assertThat(suite.scenarios()).extracting(Suite.Scenario::load).containsExactly(
                LoadModel.OpenLoop.fixedPool(50_000, LoadModel.InterArrival.EXPONENTIAL, 100),
                new LoadModel.OpenLoop(200, null, LoadModel.ConnectionPolicy.UNBOUNDED, 0),
                new LoadModel.OpenLoop(200, null, LoadModel.ConnectionPolicy.ADAPTIVE, 0));
        LoadSpec spec = suite.scenarios().getFirst().toSpec(URI.create("http://127.0.0.1:1/hello"), null);
        assertThat(spec.model()).isEqualTo(suite.scenarios().getFirst().load());
    }

    @Test
    void aFixedPoolWithoutItsSizeOrAnUnknownPolicyIsOneLine() {
        assertThatThrownBy(() -> OneScenarioSuite.of("{ type: open, ratePerSec: 100, connectionPolicy: FIXED }"))
                .isInstanceOf(UserError.class)
                .hasMessageStartingWith("my.yaml")
                .hasMessageContaining("a FIXED pool needs connections >= 1");
        assertThatThrownBy(() -> OneScenarioSuite.of("{ type: open, ratePerSec: 100, connectionPolicy: SOMETIMES }"))
                .isInstanceOf(UserError.class)
                .hasMessageContaining("ADAPTIVE")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void defaultsFillWhatASuiteLeavesOut() {
        Suite suite = parse("""
                name: mine
                targets: [dummy]
                """ + ONE_CLOSED_SCENARIO);

        assertThat(suite.repetitions()).isEqualTo(1);
        assertThat(suite.jvm().target()).isEqualTo(JvmOptions.DEFAULT_TARGET);
        assertThat(suite.scenarios().getFirst().template().warmupMs()).isZero();
    }

    @Test
    void aScenarioCanSetUpTheGenerator() {
        Suite suite = parse("""
                name: mine
                targets: [dummy]
                scenarios:
                  - name: many
                    load: { type: max-concurrency, requests: 30000 }
                    waitMs: 60000
                    durationMs: 5000
                    generator: { processes: 2, sourceAddresses: [127.0.0.1, 127.0.0.2], responseTimeoutMs: 90000 }
                """);

        LoadSpec spec = suite.scenarios().getFirst().toSpec(URI.create("http://127.0.0.1:1/hello?wait=60000"),
                URI.create("http://127.0.0.1:2/"));

        assertThat(spec.processes()).isEqualTo(2);
        assertThat(spec.sourceAddresses()).containsExactly("127.0.0.1", "127.0.0.2");
        assertThat(spec.responseTimeoutMs()).isEqualTo(90_000);
        assertThat(spec.adminUrl()).isEqualTo(URI.create("http://127.0.0.1:2/"));
        assertThat(spec.hardCapMs()).isGreaterThan(spec.durationMs() + spec.responseTimeoutMs());
    }

    @Test
    void anOpenLoopRampsWithinItsWarmUpOnly() {
        LoadSpec spec = warmingUp3s("{ type: open, ratePerSec: 100 }", "generator: { rampMs: 2000 }").scenarios().getFirst()
                .toSpec(URI.create("http://127.0.0.1:1/hello"), null);
        assertThat(spec.rampMs()).isEqualTo(2_000);

        assertThat(errorOf(() -> warmingUp3s("{ type: open, ratePerSec: 100 }", "generator: { rampMs: 4000 }")))
                .contains("scenario s: generator.rampMs must be within the warm-up, 0 to 3000 ms, got 4000");
        assertThat(errorOf(() -> warmingUp3s("{ type: closed, connections: 2 }", "generator: { rampMs: 1000 }")))
                .contains("generator.rampMs raises an open loop's rate");
    }

    @Test
    void aScenarioWarmsUpUntilSteadyBetweenItsMinimumAndItsMaximum() {
        Suite.Scenario scenario = warmingUp3s("{ type: closed, connections: 2 }", "steady: { maxMs: 20500 }")
                .scenarios().getFirst();
        LoadSpec spec = scenario.toSpec(URI.create("http://127.0.0.1:1/hello"), null);
        assertThat(spec.steady()).isEqualTo(new SteadyRule(20_500, SteadyRule.DEFAULT_WINDOWS,
                SteadyRule.DEFAULT_TOLERANCE_PERCENT));
        // Whole windows past the minimum, and the least: twice the windows judged, then the measured phase's tick.
        assertThat(scenario.warmupMaxMs()).isEqualTo(21_000);
        assertThat(scenario.warmupLeastMs()).isEqualTo(7_000);
        assertThat(spec.hardCapMs()).isGreaterThan(21_000 + 1_000);

        assertThat(errorOf(() -> warmingUp3s("{ type: closed, connections: 2 }", "steady: { maxMs: 2000 }")))
                .contains("scenario s: steady.maxMs (2000) must be at least warmupMs (3000), the warm-up's minimum");
        assertThat(errorOf(() -> warmingUp3s("{ type: closed, connections: 2 }", "steady: { maxMs: 9000, windows: 1 }")))
                .contains("a steady state is judged on 2 to 60 windows, got 1");
        assertThat(errorOf(() -> warmingUp3s("{ type: max-concurrency, requests: 10 }", "steady: { maxMs: 9000 }")))
                .contains("max concurrency holds its requests from the measured phase's start");
    }

    @Test
    void aMissingFieldIsNamedWithTheSource() {
        assertThatThrownBy(() -> parse("name: mine\nscenarios: []\n"))
                .isInstanceOf(UserError.class)
                .hasMessageStartingWith("my.yaml")
                .hasMessageContaining("targets must list at least one target");
    }

    @Test
    void roundsAreForksNowAndTheOldWordSaysSo() {
        assertThatThrownBy(() -> parse("""
                name: mine
                targets: [dummy]
                repetitions: 4
                repeat: round
                """ + ONE_CLOSED_SCENARIO))
                .isInstanceOf(UserError.class)
                .hasMessageContaining("repeat: round is now forks: N (each fork starts every target afresh, in turn)");
        assertThatThrownBy(() -> parse("""
                name: mine
                targets: [dummy]
                forks: 51
                """ + ONE_CLOSED_SCENARIO))
                .isInstanceOf(UserError.class)
                .hasMessageContaining("forks must be 1 to 50, got 51");
    }

    @Test
    void anUnknownFieldIsReportedWithItsPath() {
        assertThatThrownBy(() -> parse("""
                name: mine
                targets: [dummy]
                colour: blue
                """ + ONE_CLOSED_SCENARIO))
                .isInstanceOf(UserError.class)
                .hasMessage("my.yaml: unknown field 'colour'; known there: baselines, clients, description, forks, jvm, kubernetes, name, placement, protocols, repeat, repetitions, resources, scaling, scenarios, table, targets, untilResolved");
    }

    @Test
    void aBaselineMustBeOneOfTheTargetsAndNoneNamedLeavesTheDefault() {
        assertThatThrownBy(() -> parse("name: mine\ntargets: [netty-event-loop]\nbaselines: [dummy]\n" + ONE_CLOSED_SCENARIO))
                .isInstanceOf(UserError.class)
                .hasMessageContaining("baselines names dummy, which is not one of the targets [netty-event-loop]");
        assertThat(parse("name: mine\ntargets: [dummy, netty-event-loop]\n" + ONE_CLOSED_SCENARIO).baselines()).as("the default, unwritten")
                .isNull();
        assertThat(parse("name: mine\ntargets: [jetty-handler-sync, netty-event-loop]\nbaselines: [jetty-handler-sync]\n"
                + ONE_CLOSED_SCENARIO).withTargets(List.of("netty-event-loop")).baselines()).as("a baseline left out with its target").isEmpty();
    }

    @Test
    void anUnknownFieldInAScenarioIsReportedWithItsPath() {
        assertThatThrownBy(() -> parse("""
                name: mine
                targets: [dummy]
                scenarios:
                  - name: s
                    load: { type: closed, connections: 2 }
                    waitMS: 100
                    durationMs: 1000
                """))
                .isInstanceOf(UserError.class)
                .hasMessageStartingWith("my.yaml: unknown field 'scenarios[0].waitMS'");
    }

    @Test
    void anInvalidLoadIsReportedAsTheUserWroteIt() {
        assertThatThrownBy(() -> OneScenarioSuite.of("{ type: open, ratePerSec: -5 }"))
                .isInstanceOf(UserError.class)
                .hasMessageContaining("rate must be > 0");
    }

    @Test
    void brokenYamlIsOneLine() {
        assertThatThrownBy(() -> parse("name: [unclosed\n"))
                .isInstanceOf(UserError.class)
                .hasMessageStartingWith("my.yaml")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void anUnknownSuiteNameSaysWhichAreBuiltIn() {
        assertThatThrownBy(() -> SuiteLoader.load("no-such-suite"))
                .isInstanceOf(UserError.class)
                .hasMessageContaining("[quick, server, sweep, latency-diff, throughput, client, protocols]");
    }

    @Test
    void resourcesPerRoleAreReadWithTheirUnits() {
        Suite suite = parse("""
                name: mine
                targets: [dummy]
                resources:
                  target: { cpus: "0-1,3", cpuQuota: 0.5, memory: 1536m }
                  generator: { cpus: 2, memory: 2G }
                scenarios:
                  - name: s
                    load: { type: closed, connections: 1 }
                    durationMs: 1000
                """);

        assertThat(suite.resources().given()).isTrue();
        assertThat(suite.resources().target()).isEqualTo(new Resources.RoleResources("0-1,3", 0.5, "1536m"));
        assertThat(suite.resources().target().memoryBytes()).isEqualTo(1536L << 20);
        assertThat(suite.resources().generator().cpus()).as("a bare number is a CPU list too").isEqualTo("2");
        assertThat(suite.resources().generator().memoryBytes()).isEqualTo(2L << 30);
        assertThat(suite.resources().generator().cpuQuota()).isNull();
    }

    @Test
    void withoutResourcesEachRoleKeepsItsDefaultPlacement() {
        Suite suite = parse("""
                name: mine
                targets: [dummy]
                resources: { target: { memory: 64m } }
                scenarios:
                  - name: s
                    load: { type: closed, connections: 1 }
                    durationMs: 1000
                """);

        assertThat(suite.resources().generator()).isEqualTo(Resources.RoleResources.UNSET);
        assertThat(suite.resources().target().cpus()).isNull();
        assertThat(SuiteLoader.load("quick").resources().given()).isFalse();
    }

    @Test
    void aSuiteMayRunInAClusterItsPodsSizedByItsResources() {
        Suite suite = parse("""
                name: mine
                targets: [dummy]
                placement: kubernetes
                kubernetes: { namespace: load, image: registry.example/gauntlet:1, shards: 3, loadNodes: { gauntlet: load } }
                resources:
                  target: { cpus: "0-3", memory: 1536m }
                  generator: { cpuQuota: 1.5, memory: 1g }
                scenarios:
                  - name: s
                    load: { type: closed, connections: 1 }
                    durationMs: 1000
                """);

        assertThat(suite.placement()).isEqualTo(Placement.KUBERNETES);
        assertThat(suite.kubernetes()).isEqualTo(new ClusterSettings("load", "registry.example/gauntlet:1", 3, null,
                java.util.Map.of("gauntlet", "load"), null, null));
        assertThat(ClusterSettings.targetPod(suite.resources())).isEqualTo(new ClusterSettings.PodSize("4", "1536Mi", 4));
        assertThat(ClusterSettings.shardPod(suite.resources())).isEqualTo(new ClusterSettings.PodSize("1500m", "1Gi", 1.5));
    }

    @Test
    void aSuiteRunsHereUnlessItSaysOtherwiseAndAClusterHasDefaults() {
        assertThat(SuiteLoader.load("server").placement()).isEqualTo(Placement.LOCAL);
        assertThat(SuiteLoader.load("server").kubernetes()).isNull();
        Suite inCluster = SuiteLoader.load("server").inCluster(ClusterSettings.DEFAULTS);
        assertThat(inCluster.kubernetes().shards()).isEqualTo(ClusterSettings.DEFAULT_SHARDS);
        assertThat(ClusterSettings.targetPod(inCluster.resources())).as("the 2016 study's target")
                .isEqualTo(new ClusterSettings.PodSize("2", "4Gi", 2));
    }

    @Test
    void aBadPlacementIsOneLine() {
        assertThatThrownBy(() -> parse("name: mine\ntargets: [dummy]\nplacement: moon\n" + ONE_CLOSED_SCENARIO)).isInstanceOf(UserError.class)
                .hasMessageStartingWith("my.yaml line 3:").hasMessageContaining("moon").hasMessageContaining("kubernetes");
        assertThatThrownBy(() -> parse("name: mine\ntargets: [dummy]\nkubernetes: { shards: 2 }\n" + ONE_CLOSED_SCENARIO)).isInstanceOf(UserError.class)
                .hasMessageContaining("kubernetes: says how the suite uses a cluster: it goes with placement: kubernetes");
        assertThatThrownBy(() -> parse("name: mine\ntargets: [dummy]\nplacement: kubernetes\n"
                + "kubernetes: { shards: 0 }\n" + ONE_CLOSED_SCENARIO))
                .isInstanceOf(UserError.class).hasMessageContaining("kubernetes.shards must be 1 to 64, got 0");
        assertThatThrownBy(() -> parse("name: mine\ntargets: [dummy]\nplacement: kubernetes\n"
                + "kubernetes: { nodes: 2 }\n" + ONE_CLOSED_SCENARIO))
                .isInstanceOf(UserError.class).hasMessage(
                        "my.yaml: unknown field 'kubernetes.nodes'; known there: image, loadNodes, namespace, readyTimeoutMs, shards, startLeadMs, targetNodes");
    }

    @Test
    void sizesAreBytesOrPowersOf1024() {
        assertThat(Resources.RoleResources.parseBytes("1048576")).isEqualTo(1L << 20);
        assertThat(Resources.RoleResources.parseBytes("64k")).isEqualTo(64L << 10);
        assertThat(Resources.RoleResources.parseBytes("256M")).isEqualTo(256L << 20);
        assertThat(Resources.RoleResources.parseBytes("3g")).isEqualTo(3L << 30);
        assertThat(Resources.RoleResources.parseBytes("2 GB")).isEqualTo(-1);
        assertThat(Resources.RoleResources.parseBytes("1.5g")).isEqualTo(-1);
    }

    @Test
    void aBadResourceIsOneLineNamingItsField() {
        assertThat(resourceError("target: { cpus: \"0-\" }"))
                .isEqualTo("my.yaml line 5: resources.target.cpus must be a CPU list such as \"0\", \"0-1\" or \"0,2-3\", got '0-'");
        assertThat(resourceError("target: { cpus: \"3-1\" }")).contains("resources.target.cpus must be a CPU list");
        assertThat(resourceError("generator: { memory: 2x }"))
                .isEqualTo("my.yaml line 5: resources.generator.memory must be a size such as 512m or 2g, got '2x'");
        assertThat(resourceError("generator: { memory: 1m }")).contains("resources.generator.memory must be at least 16m, got '1m'");
        assertThat(resourceError("target: { cpuQuota: 0 }")).contains("resources.target.cpuQuota must be CPUs' worth of time");
        assertThat(resourceError("target: { cpuQuota: half }")).startsWith("my.yaml line").contains("half");
        assertThat(resourceError("target: { memroy: 1g }")).isEqualTo(
                "my.yaml: unknown field 'resources.target.memroy'; known there: cpuQuota, cpus, memory");
    }

    private static String resourceError(String roleLine) {
        try {
            parse("""
                    name: mine
                    targets: [dummy]
                    resources:
                      %s
                    scenarios:
                      - name: s
                        load: { type: closed, connections: 1 }
                        durationMs: 1000
                    """.formatted(roleLine));
        } catch (UserError e) {
            assertThat(e.getMessage()).doesNotContain("\n");
            return e.getMessage();
        }
        throw new AssertionError("no error for " + roleLine);
    }

    @Test
    void aSuitesClientsSpellEachScenarioOutOncePerClientAndLeaveTheWarmUpToTheBuiltInEngine() {
        Suite suite = parse("""
                name: mine
                targets: [netty-event-loop]
                clients: [okhttp-virtual, jdk-async]
                scenarios:
                  - name: warm-up
                    warmUp: true
                    load: { type: closed, connections: 10 }
                    durationMs: 1000
                  - name: slow
                    load: { type: open, ratePerSec: 100 }
                    waitMs: 1000
                    durationMs: 1000
                  - name: fast
                    load: { type: closed, connections: 10 }
                    durationMs: 1000
                """).withClientScenarios();

        assertThat(suite.clients()).isEmpty();
        assertThat(suite.scenarios()).extracting(Suite.Scenario::name)
                .containsExactly("warm-up", "slow.okhttp-virtual", "slow.jdk-async", "fast.okhttp-virtual", "fast.jdk-async");
        assertThat(suite.scenarios()).extracting(Suite.Scenario::client)
                .containsExactly(null, "okhttp-virtual", "jdk-async", "okhttp-virtual", "jdk-async");
        LoadSpec spec = suite.scenarios().get(2).toSpec(URI.create("http://127.0.0.1:1/hello?wait=1000"), null);
        assertThat(spec.client()).isEqualTo("jdk-async");
        assertThat(spec.model()).isInstanceOf(LoadModel.OpenLoop.class);
    }

    @Test
    void theClientSuiteRunsTheFourCasesForEveryClientOfTheCatalogue() {
        Suite client = SuiteLoader.load("client");

        assertThat(client.clients()).containsExactlyInAnyOrderElementsOf(
                ClientModules.all().stream().map(c -> c.name()).toList());
        assertThat(client.scenarios()).filteredOn(s -> !s.warmUp()).extracting(Suite.Scenario::name)
                .containsExactly("held", "slow", "realistic", "overhead");
        assertThat(client.table()).isEqualTo(Suite.Table.CLIENTS);
        // The clients that speak h3 run every case over it too; ClientModules.check lets the others skip that target.
        assertThat(client.targets()).containsExactly("netty-event-loop", "netty-event-loop@h3");
        assertThat(ClientModules.check(client)).containsExactly("netty-event-loop@h3: "
                + ClientModules.all().stream().filter(c -> !c.library().speaks(Protocol.H3)).count() + " of "
                + ClientModules.all().size() + " clients speak no h3 and skip it (./gauntlet clients lists what each speaks)");
        // A client with no target it can load is still refused in one line.
        assertThatThrownBy(() -> ClientModules.check(client.withTargets(List.of("netty-event-loop@h3"))
                .withClients(List.of("reactor-async", "jetty-async")))).isInstanceOf(UserError.class).hasMessage(
                "client jetty-async speaks http1, https1, h2, h2c, not h3 (target netty-event-loop@h3): name the targets it can"
                        + " load with --targets NAME@PROTOCOL,... or drop it from --clients (./gauntlet clients lists what each speaks)");
    }

    @Test
    void aNameThatWouldLeaveItsResultsDirectoryIsOneLine() {
        assertThat(suiteError("name: ..", "durationMs: 1000")).isEqualTo(
                "my.yaml line 7: name must be letters, digits, '.', '_' or '-' (not . or ..), got ..");
        assertThat(suiteError("name: ..mine", "durationMs: 1000")).as("dots within a name are fine").isEqualTo("no error");
        assertThat(suiteError("name: a/b", "durationMs: 1000")).contains("name must be letters", "got a/b");
        assertThatThrownBy(() -> parse("""
                name: mine
                targets: [dummy]
                scenarios:
                  - name: .
                    load: { type: closed, connections: 1 }
                    durationMs: 1000
                """)).isInstanceOf(UserError.class).hasMessageContaining("scenario name must be letters").hasMessageEndingWith("got .");
    }

    @Test
    void aLengthOrCountOutOfRangeIsOneLineNamingItsFieldValueAndRange() {
        assertThat(suiteError("name: mine", "durationMs: 999999999999")).isEqualTo(
                "my.yaml line 7: scenario s: durationMs must be 1 to 604800000, got 999999999999");
        assertThat(suiteError("name: mine", "durationMs: 99999999999999999999")).startsWith("my.yaml line 6: ")
                .contains("out of range of long");
        assertThat(suiteError("name: mine", "durationMs: 1000\n    warmupMs: 9223372036854775807"))
                .contains("scenario s: warmupMs must be 0 to 604800000, got 9223372036854775807");
        assertThat(suiteError("name: mine", "durationMs: 1000\n    waitMs: -1")).contains("scenario s: waitMs must be 0 to 604800000, got -1");
        assertThat(suiteError("name: mine", "durationMs: 1000\n    steady: { maxMs: 100000000000 }"))
                .contains("scenario s: steady.maxMs must be 1 to 604800000, got 100000000000");
        assertThat(suiteError("name: mine\nrepetitions: -2", "durationMs: 1000")).contains("repetitions must be 1 to 100, got -2");
        assertThat(suiteError("name: mine\nrepetitions: 100000000", "durationMs: 1000")).contains("repetitions must be 1 to 100, got 100000000");
        assertThat(suiteError("name: mine", "durationMs: 1000\n    generator: { threads: -3 }"))
                .contains("generator.threads must be 1 to 1024, got -3");
        assertThat(suiteError("name: mine", "durationMs: 1000\n    generator: { processes: 100000 }"))
                .contains("generator.processes must be 1 to 64 or auto, got 100000");
        assertThat(suiteError("name: mine", "durationMs: 1000\n    generator: { processes: -1 }"))
                .contains("generator.processes must be 1 to 64 or auto, got -1");
        assertThat(suiteError("name: mine", "durationMs: 1000\n    generator: { maxConnections: -1 }"))
                .contains("generator.maxConnections must be 0 to 1000000, got -1");
        assertThat(suiteError("name: mine", "durationMs: 1000\n    generator: { responseTimeoutMs: -5 }"))
                .contains("generator.responseTimeoutMs must be 0 to 604800000, got -5");
    }

    /** The one-line error of a suite with {@code head} (its name, and more) and its one scenario's {@code phases}. */
    private static String suiteError(String head, String phases) {
        return errorOf(() -> parse("""
                %s
                targets: [dummy]
                scenarios:
                  - name: s
                    load: { type: closed, connections: 1 }
                    %s
                """.formatted(head, phases)));
    }

    /** The error of a suite the loader refuses, checked to be one line; {@code no error} for a suite it takes. */
    private static String errorOf(Supplier<Suite> parsing) {
        try {
            parsing.get();
        } catch (UserError e) {
            assertThat(e.getMessage()).doesNotContain("\n");
            return e.getMessage();
        }
        return "no error";
    }

    /** A suite of one scenario, s, of {@code load}: warmed up 3 s, measured 1 s, and set up by one more field. */
    private static Suite warmingUp3s(String load, String field) {
        return OneScenarioSuite.of(load, "warmupMs: 3000", field);
    }

    private static Suite parse(String yaml) {
        return OneScenarioSuite.parse(yaml);
    }
}
