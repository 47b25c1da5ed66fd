package dev.gauntlet.runner.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.ShardStart;
import dev.gauntlet.loadgen.ShardMain;
import dev.gauntlet.runner.GauntletHome;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRule;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./gauntlet load --kubernetes} end to end with no cluster: fabric8's mock API server in CRUD
 * mode, {@link JobControllerStandIn} running each pod's real command as a local process, and a real
 * HTTP server as the target that notes when each request arrived.
 */
@Timeout(180)
class KubernetesLoadIT {
    private static final String NAMESPACE = "load";
    private static final String IMAGE = "gauntlet-generator:test";
    /** The line before a shard's files in its output (ShardArchive). */
    private static final String ARCHIVE_BEGIN = "-----BEGIN GAUNTLET SHARD RESULTS-----";

    @TempDir
    Path dir;
    private KubernetesMockServer api;
    private KubernetesClient client;
    private JobControllerStandIn cluster;
    private HttpServer target;
    private final Queue<Long> arrivalsNs = new ConcurrentLinkedQueue<>();
    /** Mid-run for the killed shard's test: 2.5 s of its 150 requests/s have reached the target. */
    private final CountDownLatch midRun = new CountDownLatch(375);

    @BeforeEach
    void start() throws IOException {
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        api = new KubernetesMockServer(new Context(), new MockWebServer(), responses, new KubernetesMixedDispatcher(responses), false);
        api.init(InetAddress.getLoopbackAddress(), 0);
        // HTTP/1.1: the JDK client's HTTP/2 upgrade stalls against the mock's Vert.x 4 server after the first request.
        client = new KubernetesClientBuilder().withConfig(new ConfigBuilder().withMasterUrl("http://127.0.0.1:" + api.getPort())
                .withNamespace(NAMESPACE).withHttp2Disable(true).build()).build();
        cluster = new JobControllerStandIn(api, client, NAMESPACE, image(), Files.createDirectories(dir.resolve("nodes")));
        target = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
        target.setExecutor(Executors.newFixedThreadPool(4));
        target.createContext("/hello", exchange -> {
            arrivalsNs.add(System.nanoTime());
            midRun.countDown();
            byte[] hello = "hello".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, hello.length);
            exchange.getResponseBody().write(hello);
            exchange.close();
        });
        target.start();
    }

    @AfterEach
    void stop() {
        cluster.close();
        target.stop(0);
        client.close();
        api.destroy();
    }

    @Test
    void threeShardsStartTogetherInterleaveAndMergeIntoTheirTotals() throws Exception {
        // One node pulls the image 5 s longer: the others wait for it (under load the JVMs start up to ~1.5 s apart).
        cluster.delayStart(2, 5_000);
        Path out = dir.resolve("run");

        Result result = gauntlet(kubeconfig(api.getPort()), "load", targetUrl(), "--rate", "300", "--inter-arrival", "constant",
                "--warmup", "1s", "--duration", "4s", "--kubernetes", "--shards", "3", "--namespace", NAMESPACE,
                "--image", IMAGE, "--output", out.toString());

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        cluster.rethrow();
        assertThat(result.stdout()).contains("over 3 processes").contains("verdict");
        assertThat(result.stderr()).contains("every shard is ready; the common start is at");

        Job job = cluster.jobs().getFirst();
        assertThat(job.getSpec().getCompletionMode()).isEqualTo("Indexed");
        assertThat(job.getSpec().getCompletions()).isEqualTo(3);
        assertThat(job.getSpec().getParallelism()).isEqualTo(3);
        assertThat(job.getSpec().getBackoffLimitPerIndex()).isZero();
        PodFailurePolicyRule rule = job.getSpec().getPodFailurePolicy().getRules().getFirst();
        assertThat(rule.getAction()).isEqualTo("FailIndex");
        assertThat(rule.getOnExitCodes().getValues()).containsExactly(ShardMain.MISSED_START);
        assertThat(job.getSpec().getTemplate().getSpec().getRestartPolicy()).isEqualTo("Never");
        Container container = job.getSpec().getTemplate().getSpec().getContainers().getFirst();
        assertThat(container.getImage()).isEqualTo(IMAGE);
        assertThat(container.getResources().getRequests()).isEqualTo(container.getResources().getLimits());
        RunSummary merged = Json.json().readValue(out.resolve("summary.json").toFile(), RunSummary.class);
        // The Job in the API's JSON, as the stand-in got it: the least a generator needs, and an end should the runner die.
        JsonNode sent = Json.json().readTree(client.getKubernetesSerialization().asJson(job));
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("/spec/template/spec/automountServiceAccountToken", "false");
        fields.put("/spec/template/spec/securityContext/runAsNonRoot", "true");
        fields.put("/spec/template/spec/securityContext/runAsUser", "65532");
        fields.put("/spec/template/spec/securityContext/runAsGroup", "65532");
        fields.put("/spec/template/spec/securityContext/seccompProfile/type", "\"RuntimeDefault\"");
        fields.put("/spec/template/spec/containers/0/securityContext/allowPrivilegeEscalation", "false");
        fields.put("/spec/template/spec/containers/0/securityContext/capabilities/drop", "[\"ALL\"]");
        // As long as the runner waits: 5 min for every shard to be ready, the 5 s lead, the hard cap, 1 min of grace.
        fields.put("/spec/activeDeadlineSeconds", Long.toString(300 + 5 + Math.ceilDiv(merged.spec().hardCapMs(), 1_000) + 60));
        fields.put("/spec/ttlSecondsAfterFinished", "600");
        fields.forEach((path, json) -> assertThat(sent.at(path).toString()).as("%s in %s", path, sent).isEqualTo(json));
        assertThat(client.batch().v1().jobs().inNamespace(NAMESPACE).list().getItems()).as("the Job is deleted").isEmpty();
        assertThat(client.configMaps().inNamespace(NAMESPACE).list().getItems()).as("the ConfigMap is deleted").isEmpty();
        assertThat(cluster.alive()).isZero();

        // The barrier: one start instant for all, after the last shard was ready.
        List<ShardStart> starts = new ArrayList<>();
        for (int shard = 1; shard <= 3; shard++) {
            starts.add(Json.json().readValue(new RunDirectory(out.resolve("p" + shard)).shardStart().toFile(), ShardStart.class));
        }
        long lastReady = starts.stream().mapToLong(ShardStart::readyAtEpochMs).max().orElseThrow();
        assertThat(starts).extracting(ShardStart::startAtEpochMs).containsOnly(starts.getFirst().startAtEpochMs());
        assertThat(starts.getFirst().startAtEpochMs()).isGreaterThan(lastReady);
        assertThat(starts.get(2).readyAtEpochMs() - starts.get(0).readyAtEpochMs()).as("shard 2 was held up").isGreaterThan(3_000);

        // The merged result is the sum of the shards', histogram by histogram.
        long completed = 0;
        long histogramCount = 0;
        for (int shard = 1; shard <= 3; shard++) {
            Path shardDir = out.resolve("p" + shard);
            completed += Json.json().readValue(shardDir.resolve("summary.json").toFile(), RunSummary.class).completed();
            histogramCount += count(shardDir.resolve("response.hlog"));
            assertThat(shardDir.resolve("shard.log")).content().contains("gauntlet shard " + (shard - 1) + " of 3");
        }
        assertThat(merged.completed()).isEqualTo(completed);
        assertThat(count(out.resolve("response.hlog"))).isEqualTo(histogramCount).isEqualTo(completed);
        assertThat(merged.completed()).as("%s", merged).isBetween(1_150L, 1_200L);
        assertThat(merged.errorCount()).isZero();
        assertThat(merged.spec().processes()).isEqualTo(1);
        assertThat(arrivalsNs.size()).isGreaterThanOrEqualTo((int) completed);

        // Constant rate from three shards: one request every 1/300 s, not a burst of three every 1/100 s.
        List<Long> arrivals = arrivalsNs.stream().sorted().toList();
        List<Long> gaps = new ArrayList<>();
        for (int i = arrivals.size() / 4; i < arrivals.size() * 3 / 4; i++) {
            gaps.add(arrivals.get(i) - arrivals.get(i - 1));
        }
        long medianGapNs = gaps.stream().sorted().toList().get(gaps.size() / 2);
        assertThat(medianGapNs).as("median gap between arrivals, ns").isBetween(2_000_000L, 4_700_000L);
    }

    @Test
    void aShardKilledMidRunFailsTheRunByItsIndexAndTheOthersResultsAreKept() throws Exception {
        Path out = dir.resolve("run");
        Path kubeconfig = kubeconfig(api.getPort());
        CompletableFuture<Result> run = onItsOwnThread(() -> gauntlet(kubeconfig, "load", targetUrl(),
                "--rate", "150", "--warmup", "1s", "--duration", "6s", "--kubernetes", "--shards", "3",
                "--namespace", NAMESPACE, "--output", out.toString()));
        // Mid-run: 2.5 s into the 7 s of warm-up and measurement, by the requests the target has seen.
        assertThat(midRun.await(60, TimeUnit.SECONDS)).as("the shards reached mid-run").isTrue();
        cluster.kill(1);
        Result result = run.get(120, TimeUnit.SECONDS);

        assertThat(result.exitCode()).as(result.stderr()).isEqualTo(2);
        List<String> lines = result.stderr().lines().toList();
        assertThat(lines.getLast()).startsWith("gauntlet load: shard 1 of 3 (pod ").contains("killed (exit code 137)")
                .contains("p1, p3 under " + out);
        assertThat(result.stderr()).doesNotContain("Exception");
        for (String shard : List.of("p1", "p3")) {
            RunSummary summary = Json.json().readValue(out.resolve(shard).resolve("summary.json").toFile(), RunSummary.class);
            // A third of 150 requests/s for 6 s, exponentially spaced.
            assertThat(summary.completed()).isBetween(200L, 400L);
        }
        assertThat(out.resolve("p2/summary.json")).doesNotExist();
        assertThat(out.resolve("p2/shard.log")).content().contains("gauntlet shard 1 of 3");
        assertThat(out.resolve("summary.json")).as("nothing merged").doesNotExist();
        assertThat(client.batch().v1().jobs().inNamespace(NAMESPACE).list().getItems()).isEmpty();
    }

    @Test
    void aShardThatSucceededWithNoResultsInItsLogFailsTheRunByName() throws Exception {
        // As if its output ended before the archive: the node lost the log's tail.
        cluster.editLog(1, log -> log.replaceAll("(?s)" + ARCHIVE_BEGIN + ".*", ""));

        assertTheRunFailsNamingShardOneAndKeepsShardZero("no results marker in its log");
    }

    @Test
    void aShardWhoseArchiveIsNotBase64FailsTheRunByName() throws Exception {
        cluster.editLog(1, log -> log.replaceFirst("(" + ARCHIVE_BEGIN + "\n).", "$1*"));

        assertTheRunFailsNamingShardOneAndKeepsShardZero("bad base64");
    }

    /** Two shards, both succeed; shard 1's results cannot be read: one line naming it, exit 2, shard 0's files kept. */
    private void assertTheRunFailsNamingShardOneAndKeepsShardZero(String reason) throws Exception {
        Path out = dir.resolve("run");

        Result result = gauntlet(kubeconfig(api.getPort()), "load", targetUrl(), "--rate", "100", "--warmup", "1s",
                "--duration", "2s", "--kubernetes", "--shards", "2", "--namespace", NAMESPACE, "--output", out.toString());

        assertThat(result.exitCode()).as(result.stderr()).isEqualTo(2);
        assertThat(result.stderr()).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(result.stderr().lines().toList().getLast()).startsWith("gauntlet load: shard 1 of 2 (pod ")
                .contains(reason).contains("p2/shard.log").contains("p1 under " + out);
        RunSummary kept = Json.json().readValue(out.resolve("p1/summary.json").toFile(), RunSummary.class);
        assertThat(kept.completed()).as("shard 0's half of 100 requests/s for 2 s").isBetween(60L, 140L);
        assertThat(out.resolve("p1/response.hlog")).exists();
        assertThat(out.resolve("p2/summary.json")).doesNotExist();
        assertThat(out.resolve("p2/shard.log")).content().contains("gauntlet shard 1 of 2");
        assertThat(out.resolve("summary.json")).as("nothing merged").doesNotExist();
        assertThat(client.batch().v1().jobs().inNamespace(NAMESPACE).list().getItems()).isEmpty();
    }

    @Test
    void anUnreachableApiServerIsOneLineAndExitTwo() throws Exception {
        int port;
        try (ServerSocket unused = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = unused.getLocalPort();
        }
        Result result = gauntlet(kubeconfig(port), "load", targetUrl(), "--rate", "10", "--kubernetes");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.stderr().lines().filter(line -> !line.startsWith("SLF4J")).toList()).singleElement().asString()
                .startsWith("gauntlet load: cannot list Jobs in namespace " + NAMESPACE + " at http://127.0.0.1:" + port)
                .contains("connection refused");
    }

    private String targetUrl() {
        return "http://127.0.0.1:" + target.getAddress().getPort() + "/hello";
    }

    private Path kubeconfig(int port) throws IOException {
        return Files.writeString(dir.resolve("kubeconfig-" + port), """
                apiVersion: v1
                kind: Config
                clusters:
                - name: mock
                  cluster: {server: "http://127.0.0.1:%d"}
                users:
                - name: mock
                  user: {token: test}
                contexts:
                - name: mock
                  context: {cluster: mock, user: mock, namespace: %s}
                current-context: mock
                """.formatted(port, NAMESPACE));
    }

    /** The image's /opt/gauntlet: the generator's jar and libraries, as docs/distributed.md's recipe copies them. */
    private Path image() throws IOException {
        GauntletHome home = GauntletHome.fromSystemProperty();
        Path lib = Files.createDirectories(dir.resolve("image/lib"));
        Path module = home.root().resolve("loadgen/target");
        Files.createSymbolicLink(lib.resolve("gauntlet-loadgen.jar"), module.resolve("gauntlet-loadgen.jar"));
        try (var jars = Files.list(module.resolve("lib"))) {
            for (Path jar : jars.toList()) {
                Files.createSymbolicLink(lib.resolve(jar.getFileName()), jar);
            }
        }
        return lib.getParent();
    }

    private static long count(Path hlog) throws IOException {
        long count = 0;
        try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile())) {
            for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram()) {
                count += ((org.HdrHistogram.Histogram) h).getTotalCount();
            }
        }
        return count;
    }

    private record Result(int exitCode, String stdout, String stderr) {
    }

    private static Result gauntlet(Path kubeconfig, String... args) {
        try {
            List<String> command = new ArrayList<>(List.of(GauntletHome.fromSystemProperty().root().resolve("gauntlet").toString()));
            command.addAll(List.of(args));
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment().put("GAUNTLET_NO_BUILD", "1");
            builder.environment().put("KUBECONFIG", kubeconfig.toString());
            Process process = builder.start();
            CompletableFuture<String> stdout = onItsOwnThread(() -> read(process.getInputStream()));
            StringBuilder stderr = new StringBuilder();
            try (var err = process.errorReader(StandardCharsets.UTF_8)) {
                for (String line; (line = err.readLine()) != null; ) {
                    System.err.println(line);
                    stderr.append(line).append(System.lineSeparator());
                }
            }
            if (!process.waitFor(150, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("./gauntlet load did not end");
            }
            return new Result(process.exitValue(), stdout.join(), stderr.toString());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /**
     * Not on the common pool: with 2 CPUs it has one thread, which a blocking read would hold for the whole
     * run, and the Kubernetes client completes its requests there.
     */
    private static <T> CompletableFuture<T> onItsOwnThread(java.util.function.Supplier<T> task) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            try {
                result.complete(task.get());
            } catch (RuntimeException | Error e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
