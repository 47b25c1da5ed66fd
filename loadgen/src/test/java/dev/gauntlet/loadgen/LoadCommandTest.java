package dev.gauntlet.loadgen;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.loadgen.split.ShardedLoad;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoadCommandTest {

    @Test
    void durationsTakeAUnit() {
        assertThat(LoadOptions.parseDurationMs("500ms")).isEqualTo(500);
        assertThat(LoadOptions.parseDurationMs("10s")).isEqualTo(10_000);
        assertThat(LoadOptions.parseDurationMs("2m")).isEqualTo(120_000);
        assertThatThrownBy(() -> LoadOptions.parseDurationMs("10")).hasMessageContaining("500ms, 10s or 2m");
        assertThatThrownBy(() -> LoadOptions.parseDurationMs("1.5s")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void flagsBecomeTheSpec() {
        LoadCommand command = parse("http://127.0.0.1:1/hello?wait=5", "--rate", "2000", "--inter-arrival", "constant",
                "--duration", "3s", "--warmup", "500ms", "--ramp", "400ms", "--max-connections", "64", "--response-timeout", "5s",
                "--any-body");
        LoadSpec spec = command.spec();
        assertThat(spec.model()).isEqualTo(new LoadModel.OpenLoop(2_000, LoadModel.InterArrival.CONSTANT));
        assertThat(spec.durationMs()).isEqualTo(3_000);
        assertThat(spec.warmupMs()).isEqualTo(500);
        assertThat(spec.rampMs()).isEqualTo(400);
        assertThat(spec.maxConnections()).isEqualTo(64);
        assertThat(spec.responseTimeoutMs()).isEqualTo(5_000);
        assertThat(spec.expectedBody()).isNull();
        assertThat(parse("http://127.0.0.1:1/", "--connections", "50").spec().model())
                .isEqualTo(new LoadModel.ClosedLoop(50));
    }

    @Test
    void rateWithConnectionsIsAnOpenLoopOverAFixedPool() {
        assertThat(parse("http://127.0.0.1:1/", "--rate", "50000", "--connections", "100").spec().model())
                .isEqualTo(LoadModel.OpenLoop.fixedPool(50_000, LoadModel.InterArrival.EXPONENTIAL, 100));
        assertThat(parse("http://127.0.0.1:1/", "--rate", "500").spec().model())
                .isEqualTo(new LoadModel.OpenLoop(500, LoadModel.InterArrival.EXPONENTIAL, LoadModel.ConnectionPolicy.ADAPTIVE, 0));
        assertThat(parse("http://127.0.0.1:1/", "--rate", "500", "--connection-policy", "unbounded").spec().model())
                .isEqualTo(new LoadModel.OpenLoop(500, LoadModel.InterArrival.EXPONENTIAL, LoadModel.ConnectionPolicy.UNBOUNDED, 0));
        assertThat(parse("http://127.0.0.1:1/", "--rate", "500", "--connection-policy", "fixed", "--connections", "7")
                .spec().model()).isEqualTo(LoadModel.OpenLoop.fixedPool(500, LoadModel.InterArrival.EXPONENTIAL, 7));
    }

    @Test
    void wrongInputExitsTwoWithOneLine() {
        assertExitTwo("http://127.0.0.1:1/", "--max-concurrency", "10", "--connections", "5");
        assertExitTwo("http://127.0.0.1:1/", "--rate", "10", "--connections", "5", "--connection-policy", "unbounded");
        assertExitTwo("http://127.0.0.1:1/", "--rate", "10", "--connection-policy", "fixed");
        assertExitTwo("http://127.0.0.1:1/", "--rate", "10", "--connections", "5", "--max-connections", "8");
        assertExitTwo("http://127.0.0.1:1/", "--rate", "10", "--connection-policy", "sometimes");
        assertExitTwo("http://127.0.0.1:1/", "--connections", "5", "--connection-policy", "adaptive");
        assertExitTwo("http://127.0.0.1:1/");
        assertExitTwo("http://127.0.0.1:1/", "--rate", "fast");
        assertExitTwo("http://127.0.0.1:1/", "--rate", "0");
        assertExitTwo("http://127.0.0.1:1/", "--connections", "10", "--duration", "10");
        assertExitTwo("ftp://127.0.0.1:1/", "--connections", "10");
        assertExitTwo("http://127.0.0.1:1/", "--rate", "10", "--warmup", "2s", "--ramp", "3s");
        assertExitTwo("http://127.0.0.1:1/", "--connections", "10", "--ramp", "1s");
        assertExitTwo("http://127.0.0.1:1/", "--connections", "10", "--wake-granularity", "1ms");
        assertExitTwo("http://127.0.0.1:1/", "--rate", "10", "--client", "jdk-virtual", "--wake-granularity", "0");
        assertExitTwo("http://127.0.0.1:1/", "--rate", "10", "--wake-granularity", "1s");
    }

    @Test
    void numbersOutOfRangeNameTheFlagTheValueAndTheRange() {
        String longest = "is longer than 7 days, the longest a duration may be: give 0ms to 10080m";
        assertThat(errorOf("http://127.0.0.1:1/", "--rate", "10", "--duration", "999999999999m"))
                .contains("'--duration'").contains("'999999999999m' " + longest);
        assertThat(errorOf("http://127.0.0.1:1/", "--rate", "10", "--warmup", "99999999999999999999s"))
                .contains("'--warmup'").contains("'99999999999999999999s' " + longest);
        assertThat(errorOf("http://127.0.0.1:1/", "--rate", "10", "--response-timeout", "10081m"))
                .contains("'--response-timeout'").contains("'10081m' " + longest);
        assertThat(errorOf("http://127.0.0.1:1/", "--rate", "10", "--connect-timeout", "0s"))
                .contains("--connect-timeout must be >= 1, got 0");
        assertThat(errorOf("http://127.0.0.1:1/", "--rate", "10", "--duration", "0s")).contains("--duration must be >= 1, got 0");
        assertThat(errorOf("http://127.0.0.1:1/", "--rate", "10", "--threads", "100000"))
                .contains("--threads must be 1 to 256, got 100000");
        assertThat(errorOf("http://127.0.0.1:1/", "--rate", "10", "--processes", "-3")).contains("--processes must be 1 to 256, got -3");
        assertThat(errorOf("http://127.0.0.1:1/", "--rate", "10", "--processes", "257")).contains("--processes must be 1 to 256, got 257");
        assertThat(errorOf("http://127.0.0.1:1/", "--rate", "10", "--max-connections", "-5"))
                .contains("--max-connections must be 1 to 2147483647, got -5");
        assertThat(errorOf("http://127.0.0.1:1/", "--rate", "10", "--max-connections", "99999999999"))
                .contains("--max-connections must be 1 to 2147483647, got 99999999999");
        assertThat(errorOf("http://127.0.0.1:1/", "--connections", "0")).contains("--connections must be 1 to 2147483647, got 0");
        assertThat(errorOf("http://127.0.0.1:1/", "--rate", "10", "--connections", "-1"))
                .contains("--connections must be 1 to 2147483647, got -1");
        assertThat(errorOf("http://127.0.0.1:1/", "--max-concurrency", "-1"))
                .contains("--max-concurrency must be 1 to 2147483647, got -1");
        assertThat(errorOf("http://127.0.0.1:1/", "--rate", "10", "--requests", "-1")).contains("--requests must be >= 0, got -1");
        for (String rate : new String[] {"Infinity", "NaN", "-5", "0"}) {
            assertThat(errorOf("http://127.0.0.1:1/", "--rate", rate))
                    .contains("--rate must be a finite number of requests/s above 0, got " + Double.parseDouble(rate));
        }
    }

    @Test
    void theLongestDurationIsAWeek() {
        assertThat(LoadOptions.parseDurationMs("10080m")).isEqualTo(LoadSpec.MAX_DURATION_MS);
        assertThat(LoadOptions.parseDurationMs("604800s")).isEqualTo(LoadSpec.MAX_DURATION_MS);
        assertThatThrownBy(() -> LoadOptions.parseDurationMs("604800001ms")).hasMessageContaining("longer than 7 days");
        assertThatThrownBy(() -> LoadOptions.parseDurationMs("9223372036854775807m")).hasMessageContaining("longer than 7 days");
    }

    @Test
    void kubernetesFlagsPlaceTheShards() {
        LoadCommand command = parseSharded("http://10.0.0.5/hello", "--rate", "1000", "--kubernetes", "--shards", "4",
                "--namespace", "load", "--image", "reg/gen:1", "--node-selector", "gauntlet=load", "--shard-cpus", "2",
                "--shard-memory", "2Gi", "--start-lead", "10s", "--ready-timeout", "30s");
        assertThat(command.placement()).isEqualTo(new ShardedLoad.Placement(4, "load", "reg/gen:1",
                java.util.Map.of("gauntlet", "load"), 2, "2Gi", 10_000, 30_000));
        assertThat(parseSharded("http://10.0.0.5/hello", "--rate", "1000", "--kubernetes").placement())
                .isEqualTo(new ShardedLoad.Placement(LoadCommand.DEFAULT_SHARDS, null, LoadCommand.DEFAULT_IMAGE,
                        java.util.Map.of(), LoadCommand.DEFAULT_SHARD_CPUS, LoadCommand.DEFAULT_SHARD_MEMORY, 5_000, 300_000));
        assertThat(parse("http://10.0.0.5/hello", "--rate", "1000").placement()).isNull();
    }

    @Test
    void shardFlagsWithoutKubernetesOrWithoutTheRunnerExitTwoWithOneLine() {
        assertThat(errorOf("http://127.0.0.1:1/", "--rate", "10", "--shards", "3")).contains("add --kubernetes");
        assertThat(errorOf("http://127.0.0.1:1/", "--rate", "10", "--ready-timeout", "5s")).contains("add --kubernetes");
        // On its own, LoadCommand has no cluster client.
        assertThat(errorOf("http://127.0.0.1:1/", "--rate", "10", "--kubernetes")).contains("use ./gauntlet load");
        // ./gauntlet load --client runs LoadCommand on its own, in a JVM with the library: the client is what is refused.
        assertThat(errorOf("http://127.0.0.1:1/", "--rate", "10", "--kubernetes", "--client", "okhttp-virtual"))
                .contains("drop --client");
    }

    @Test
    void helpHasAnExample() {
        StringWriter out = new StringWriter();
        CommandLine commandLine = new CommandLine(new LoadCommand());
        commandLine.setOut(new PrintWriter(out));
        assertThat(commandLine.execute("--help")).isZero();
        assertThat(out.toString()).contains("Examples:").containsPattern("gauntlet load http://127\\.0\\.0\\.1:\\d+/hello --connections 50")
                .containsPattern("gauntlet load http://127\\.0\\.0\\.1:\\d+/hello --rate 50000 --connections 100");
    }

    @Test
    void http3IsAskedOfAnHttpsUrlWithItsStreamsAndIsOneLineOtherwise() {
        LoadSpec h3 = parse("https://127.0.0.1:1/hello", "--http3", "--connections", "4", "--streams", "25").spec();
        assertThat(h3.protocol()).isEqualTo(dev.gauntlet.api.Protocol.H3);
        assertThat(h3.streams()).isEqualTo(25);

        assertThat(errorOf("http://127.0.0.1:1/", "--http3", "--rate", "10"))
                .contains("--http3 needs an https:// URL: QUIC is always encrypted");
        assertThat(errorOf("https://127.0.0.1:1/", "--http3", "--http2", "--rate", "10")).contains("--http2 or --http3, not both");
        assertThat(errorOf("https://127.0.0.1:1/", "--streams", "4", "--rate", "10")).contains("add --http2 or --http3");
    }

    @Test
    void specsAndModelsSurviveJson() throws Exception {
        for (LoadModel model : new LoadModel[] {new LoadModel.OpenLoop(1_500, LoadModel.InterArrival.CONSTANT),
                new LoadModel.ClosedLoop(3), new LoadModel.MaxConcurrency(10)}) {
            LoadSpec spec = LoadSpec.of(URI.create("http://127.0.0.1:9/hello"), model).withPhases(100, 200);
            assertThat(Json.json().readValue(Json.json().writeValueAsString(spec), LoadSpec.class)).isEqualTo(spec);
        }
    }

    private static LoadCommand parse(String... args) {
        LoadCommand command = new LoadCommand();
        new CommandLine(command).parseArgs(args);
        return command;
    }

    /** As the runner builds it, with a cluster client: here one that is never called. */
    private static LoadCommand parseSharded(String... args) {
        LoadCommand command = new LoadCommand((spec, placement, adminToken, dir, progress) -> {
            throw new AssertionError("not run");
        });
        new CommandLine(command).parseArgs(args);
        return command;
    }

    private static String errorOf(String... args) {
        StringWriter err = new StringWriter();
        CommandLine commandLine = new CommandLine(new LoadCommand());
        commandLine.setErr(new PrintWriter(err));
        assertThat(commandLine.execute(args)).as(String.join(" ", args)).isEqualTo(2);
        return err.toString().lines().findFirst().orElse("");
    }

    private static void assertExitTwo(String... args) {
        StringWriter err = new StringWriter();
        CommandLine commandLine = new CommandLine(new LoadCommand());
        commandLine.setErr(new PrintWriter(err));
        assertThat(commandLine.execute(args)).as(String.join(" ", args)).isEqualTo(2);
        assertThat(err.toString()).isNotEmpty().doesNotContain("nothing listens");
    }

    @Test
    void aWakeGranularityIsAutoZeroOrMicrosecondsUpToTenMilliseconds() {
        assertThat(LoadOptions.parseWakeGranularityUs("auto")).isNull();
        assertThat(LoadOptions.parseWakeGranularityUs("0")).isZero();
        assertThat(LoadOptions.parseWakeGranularityUs("250us")).isEqualTo(250);
        assertThat(LoadOptions.parseWakeGranularityUs("1ms")).isEqualTo(1_000);
        assertThat(LoadOptions.parseWakeGranularityUs("10ms")).isEqualTo(LoadSpec.MAX_WAKE_GRANULARITY_US);
        assertThatThrownBy(() -> LoadOptions.parseWakeGranularityUs("11ms")).hasMessageContaining("coarser than 10ms");
        assertThatThrownBy(() -> LoadOptions.parseWakeGranularityUs("1s")).hasMessageContaining("use auto, 0, e.g. 250us or 1ms");
        assertThatThrownBy(() -> LoadOptions.parseWakeGranularityUs("fast")).hasMessageContaining("is not a wake granularity");
    }
}
