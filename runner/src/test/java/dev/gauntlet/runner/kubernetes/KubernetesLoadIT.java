package dev.gauntlet.runner.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.gauntlet.api.AdminProtocol;
import dev.gauntlet.api.AdminToken;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.ShardStart;
import dev.gauntlet.loadgen.ShardMain;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRule;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./gauntlet load --kubernetes} end to end with no cluster ({@link MockCluster}: fabric8's mock API
 * server in CRUD mode, {@link JobControllerStandIn} running each pod's real command as a local process),
 * and a real HTTP server as the target that notes when each request arrived and the admin token its
 * resets showed.
 */
@Tag("alone") // asserts arrival gaps and completed counts
@Timeout(180)
class KubernetesLoadIT {
    private static final String NAMESPACE = MockCluster.NAMESPACE;
    private static final String IMAGE = "gauntlet-generator:test";
    private static final String ADMIN_TOKEN = "0123456789abcdef0123456789abcdef";

    @TempDir
    Path dir;
    private MockCluster mock;
    private KubernetesClient client;
    private JobControllerStandIn cluster;
    private HttpServer target;
    private final Queue<Long> arrivalsNs = new ConcurrentLinkedQueue<>();
    /** The Authorization headers of the resets the shards asked the target's admin port for. */
    private final Queue<String> resetTokens = new ConcurrentLinkedQueue<>();
    /** Mid-run for the killed shard's test: 2.5 s of its 150 requests/s have reached the target. */
    private final CountDownLatch midRun = new CountDownLatch(375);

    @BeforeEach
    void start() throws IOException {
        mock = new MockCluster(dir);
        mock.environment.put(AdminToken.VARIABLE, ADMIN_TOKEN);
        client = mock.client;
        cluster = mock.standIn;
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
        // As a target's admin port: it notes the token a reset shows, then answers as one without counts.
        target.createContext(AdminProtocol.STATS_RESET, exchange -> {
            resetTokens.add(String.valueOf(exchange.getRequestHeaders().getFirst(AdminProtocol.TOKEN_HEADER)));
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        target.start();
    }

    @AfterEach
    void stop() {
        mock.close();
        target.stop(0);
    }

    @Test
    void threeShardsStartTogetherInterleaveAndMergeIntoTheirTotals() throws Exception {
        // One node pulls the image 5 s longer: the others wait for it (under load the JVMs start up to ~1.5 s apart).
        cluster.delayStart(2, 5_000);
        Path out = dir.resolve("run");

        MockCluster.Result result = mock.gauntlet(150, "load", targetUrl(), "--rate", "300", "--inter-arrival", "constant",
                "--warmup", "1s", "--duration", "4s", "--admin", adminUrl(), "--kubernetes", "--shards", "3",
                "--namespace", NAMESPACE, "--image", IMAGE, "--output", out.toString());

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        cluster.rethrow();
        // Each shard was collected, then ended on its own, before the Job was deleted.
        assertThat(cluster.endedPhases()).containsExactly("Succeeded", "Succeeded", "Succeeded");
        assertThat(cluster.alive()).isZero();
        assertThat(result.stderr()).contains("gauntlet load: shard 0 collected", "gauntlet load: shard 1 collected",
                "gauntlet load: shard 2 collected");
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
        // As long as the runner waits: 5 min for every shard to be ready, the 5 s lead, the hard cap, 1 min of grace
        // for the shards' files, 1 min to copy them out.
        fields.put("/spec/activeDeadlineSeconds", Long.toString(300 + 5 + Math.ceilDiv(merged.spec().hardCapMs(), 1_000) + 60 + 60));
        fields.put("/spec/ttlSecondsAfterFinished", "600");
        fields.forEach((path, json) -> assertThat(sent.at(path).toString()).as("%s in %s", path, sent).isEqualTo(json));
        // The admin token from the run's Secret, in the environment only.
        assertThat(sent.at("/spec/template/spec/containers/0/env")).map(JsonNode::toString).contains("{\"name\":\"GAUNTLET_ADMIN_TOKEN\","
                + "\"valueFrom\":{\"secretKeyRef\":{\"key\":\"admin-token\",\"name\":\"" + job.getMetadata().getName()
                + "\",\"optional\":true}}}");
        assertThat(sent.toString()).doesNotContain(ADMIN_TOKEN);
        assertThat(out.resolve("summary.json")).content().doesNotContain(ADMIN_TOKEN);
        assertThat(resetTokens).as("each shard's reset showed the token").hasSize(3).containsOnly("Bearer " + ADMIN_TOKEN);
        assertTheRunsObjectsAreDeleted();

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
            assertThat(new RunDirectory(shardDir).generatorJfr()).isNotEmptyFile();
        }
        // Shard 0's JVM stands for the generator's.
        assertThat(new RunDirectory(out).generatorJfr()).hasSameBinaryContentAs(new RunDirectory(out.resolve("p1")).generatorJfr());
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
        CompletableFuture<MockCluster.Result> run = MockCluster.onItsOwnThread(() -> mock.gauntlet(150, "load", targetUrl(),
                "--rate", "150", "--warmup", "1s", "--duration", "6s", "--admin", adminUrl(), "--kubernetes", "--shards", "3",
                "--namespace", NAMESPACE, "--output", out.toString()));
        // Mid-run: 2.5 s into the 7 s of warm-up and measurement, by the requests the target has seen.
        assertThat(midRun.await(60, TimeUnit.SECONDS)).as("the shards reached mid-run").isTrue();
        // Should the runner be killed now, the cluster deletes the ConfigMap and the Secret with the Job.
        String job = cluster.jobs().getFirst().getMetadata().getName();
        for (HasMetadata owned : List.of(client.configMaps().inNamespace(NAMESPACE).withName(job).get(),
                client.secrets().inNamespace(NAMESPACE).withName(job).get())) {
            assertThat(owned.getMetadata().getOwnerReferences()).singleElement()
                    .satisfies(owner -> assertThat(owner.getKind() + " " + owner.getName()).isEqualTo("Job " + job));
        }
        cluster.killPod(shard(1));
        MockCluster.Result result = run.get(120, TimeUnit.SECONDS);

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
        assertThat(cluster.endedPhases()).containsExactlyInAnyOrder("Failed", "Succeeded", "Succeeded");
        assertTheRunsObjectsAreDeleted();
    }

    @Test
    void aShardThatNeverGetsReadyFailsTheRunInSecondsNamingItsPod() throws Exception {
        cluster.neverReady(shard(1));
        long startNs = System.nanoTime();

        MockCluster.Result result = mock.gauntlet(150, "load", targetUrl(), "--rate", "100", "--admin", adminUrl(),
                "--kubernetes", "--shards", "2", "--namespace", NAMESPACE, "--ready-timeout", "5s");

        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNs)).as("seconds to fail").isLessThan(30);
        assertThat(result.exitCode()).as(result.stderr()).isEqualTo(2);
        assertThat(result.stderr()).doesNotContain("Exception");
        assertThat(result.stderr().lines().toList().getLast()).startsWith("gauntlet load: only ")
                .contains(" of 2 shards were ready after 5 s (")
                .containsPattern("shard 1 of 2 \\(pod gauntlet-[^)]+\\) Running, not ready \\(ContainersNotReady")
                .endsWith("; nothing was measured");
        assertThat(arrivalsNs).as("nothing was sent").isEmpty();
        assertTheRunsObjectsAreDeleted();
    }

    @Test
    void aShardWhoseResultsArriveCorruptFailsTheRunByNameAndTheOthersAreKept() throws Exception {
        // Shard 1's results reach the runner through a proxy that cuts them in half, as a broken middlebox would: the
        // runner finds the proxy's port where the shard's log names its own.
        AtomicInteger shardPort = new AtomicInteger();
        HttpServer proxy = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
        proxy.createContext("/results", exchange -> {
            try (HttpClient http = HttpClient.newHttpClient()) {
                HttpResponse<byte[]> answer = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + shardPort.get()
                        + "/results")).build(), HttpResponse.BodyHandlers.ofByteArray());
                byte[] half = Arrays.copyOf(answer.body(), answer.body().length / 2);
                exchange.sendResponseHeaders(answer.statusCode(), half.length);
                exchange.getResponseBody().write(half);
            } catch (InterruptedException e) {
                exchange.sendResponseHeaders(502, -1);
            }
            exchange.close();
        });
        proxy.start();
        Pattern portLine = Pattern.compile("results at port (\\d+)");
        cluster.editLog(1, log -> {
            Matcher port = portLine.matcher(log);
            if (port.find()) {
                shardPort.set(Integer.parseInt(port.group(1)));
            }
            return port.replaceFirst("results at port " + proxy.getAddress().getPort());
        });
        try {
            Path out = dir.resolve("run");

            MockCluster.Result result = mock.gauntlet(150, "load", targetUrl(), "--rate", "100", "--warmup", "1s",
                    "--duration", "2s", "--kubernetes", "--shards", "2", "--namespace", NAMESPACE, "--output", out.toString());

            assertThat(result.exitCode()).as(result.stderr()).isEqualTo(2);
            assertThat(result.stderr()).doesNotContain("Exception").doesNotContain("\tat ");
            assertThat(result.stderr().lines().toList().getLast()).startsWith("gauntlet load: shard 1 of 2 (pod ")
                    .contains("served results that cannot be read: bad archive").contains("p2/shard.log").contains("p1 under " + out);
            RunSummary kept = Json.json().readValue(out.resolve("p1/summary.json").toFile(), RunSummary.class);
            assertThat(kept.completed()).as("shard 0's half of 100 requests/s for 2 s").isBetween(60L, 140L);
            assertThat(out.resolve("p1/response.hlog")).exists();
            assertThat(out.resolve("p2/summary.json")).doesNotExist();
            assertThat(out.resolve("p2/shard.log")).content().contains("gauntlet shard 1 of 2");
            assertThat(out.resolve("summary.json")).as("nothing merged").doesNotExist();
            assertTheRunsObjectsAreDeleted();
        } finally {
            proxy.stop(0);
        }
    }

    @Test
    void anUnreachableApiServerIsOneLineAndExitTwo() throws Exception {
        int port;
        try (ServerSocket unused = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = unused.getLocalPort();
        }
        mock.environment.put("KUBECONFIG", mock.kubeconfig(port).toString());
        MockCluster.Result result = mock.gauntlet(150, "load", targetUrl(), "--rate", "10", "--kubernetes");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.stderr().lines().filter(line -> !line.startsWith("SLF4J")).toList()).singleElement().asString()
                .startsWith("gauntlet load: cannot list Jobs in namespace " + NAMESPACE + " at http://127.0.0.1:" + port)
                .contains("connection refused");
    }

    private String targetUrl() {
        return "http://127.0.0.1:" + target.getAddress().getPort() + "/hello";
    }

    private String adminUrl() {
        return "http://127.0.0.1:" + target.getAddress().getPort();
    }

    /** The pods of the Job's index {@code index}. */
    private static Predicate<Pod> shard(int index) {
        return pod -> ShardJob.indexOf(pod) == index;
    }

    /** The Job, its ConfigMap and its Secret are gone, and so are the shards' processes once their grace is over. */
    private void assertTheRunsObjectsAreDeleted() throws InterruptedException {
        assertThat(client.batch().v1().jobs().inNamespace(NAMESPACE).list().getItems()).as("the Job is deleted").isEmpty();
        assertThat(client.configMaps().inNamespace(NAMESPACE).list().getItems()).as("the ConfigMap is deleted").isEmpty();
        assertThat(client.secrets().inNamespace(NAMESPACE).list().getItems()).as("the Secret is deleted").isEmpty();
        // A shard still running when its pod was deleted gets SIGTERM, and SIGKILL 5 s later; a container's end is a
        // step of the stand-in, which await wakes on.
        assertThat(cluster.await(() -> cluster.alive() == 0, Duration.ofSeconds(10))).as("no containers left").isTrue();
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
}
