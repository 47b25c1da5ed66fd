package dev.gauntlet.runner.kubernetes;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.ShardStart;
import dev.gauntlet.loadgen.failure.GeneratorException;
import dev.gauntlet.loadgen.run.Generator;
import dev.gauntlet.loadgen.split.ShardedLoad;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code gauntlet load --kubernetes}: the load as an Indexed Job of {@link ShardJob}, through the
 * kubeconfig's cluster (fabric8's client, on the JDK's HTTP client).
 *
 * <ol>
 *   <li>creates the ConfigMap with the whole load's spec, the Secret with the target's admin token (if
 *       any) and the Job of N pods, which then owns the other two;</li>
 *   <li>waits until every pod is Ready (its checks against the target passed), then sets the common
 *       start a lead ahead: in the ConfigMap (the record) and in each pod's annotation (the signal);</li>
 *   <li>copies each shard's files out of its pod once its run is done ({@link ShardCollector}) into
 *       {@code DIR/p<index + 1>}, with its output as {@code shard.log}, and then sets the pod's annotation
 *       {@value ShardJob#COLLECTED}, on which the shard ends; a failed shard is named at once with its
 *       last output, and the others are collected;</li>
 *   <li>deletes the Job, the ConfigMap and the Secret (also when the runner is stopped), then merges the
 *       shards into {@code DIR} — or, when one failed or its files could not be copied, ends with one line
 *       naming it, the others' results kept.</li>
 * </ol>
 */
public final class KubernetesLoad implements ShardedLoad {
    /** After a shard's hard cap: writing its files and dumping its recording. */
    private static final long END_GRACE_MS = 60_000;
    /** After that: copying the files out of the pods, and the pods' exit once told. */
    private static final long COLLECT_MS = 60_000;
    private static final DateTimeFormatter NAME_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT);
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT);

    @Override
    public RunSummary run(LoadSpec spec, Placement placement, String adminToken, Path outputDir, PrintStream progress) {
        try (KubernetesClient client = connect()) {
            String namespace = placement.namespace() != null ? placement.namespace()
                    : Objects.requireNonNullElse(client.getNamespace(), "default");
            checkAccess(client, namespace);
            Path dir = outputDir != null ? outputDir : newOutputDir(progress);
            String name = String.format(Locale.ROOT, "gauntlet-%s-%04x", LocalDateTime.now().format(NAME_TIME),
                    ThreadLocalRandom.current().nextInt(0x10000));
            JobRun run = new JobRun(client, namespace, name, placement, progress);
            Thread cleanUp = new Thread(run::delete, "gauntlet-kubernetes-cleanup");
            Runtime.getRuntime().addShutdownHook(cleanUp);
            try (ShardCollector collector = new ShardCollector(ShardCollector.UNREACHABLE_GRACE_MS)) {
                client.configMaps().inNamespace(namespace).resource(ShardJob.configMap(name, spec)).create();
                if (adminToken != null) {
                    client.secrets().inNamespace(namespace).resource(ShardJob.adminToken(name, adminToken)).create();
                }
                long deadlineSec = jobDeadlineSec(spec, placement);
                Job job = client.batch().v1().jobs().inNamespace(namespace).resource(ShardJob.job(name, placement, deadlineSec))
                        .create();
                run.adopt(ShardJob.ownedBy(job), adminToken != null);
                progress.printf(Locale.ROOT, "gauntlet load: %s -> %s over %d shards, Indexed Job %s in namespace %s (image %s)%n",
                        spec.model().describe(), spec.url(), placement.shards(), name, namespace, placement.image());
                run.awaitReady();
                long startAt = System.currentTimeMillis() + placement.startLeadMs();
                run.announceStart(startAt);
                progress.printf(Locale.ROOT, "gauntlet load: every shard is ready; the common start is at %s%n",
                        CLOCK.format(Instant.ofEpochMilli(startAt).atZone(ZoneId.systemDefault())));
                List<Path> shardDirs = run.collect(collector, dir, startAt, startAt + spec.hardCapMs() + END_GRACE_MS + COLLECT_MS);
                run.failure().ifPresent(failure -> {
                    throw new GeneratorException(failure + keptResults(shardDirs, dir));
                });
                RunSummary merged = Generator.merge(spec, shardDirs, dir);
                copyGeneratorRecording(shardDirs.getFirst(), dir);
                shardDirs.forEach(shardDir -> progress.println("gauntlet load: " + describe(shardDir)));
                return merged;
            } finally {
                run.delete();
                removeHook(cleanUp);
            }
        } catch (KubernetesClientException e) {
            throw new GeneratorException("the Kubernetes API failed: " + oneLine(e) + "; the shards' objects are deleted");
        }
    }

    /**
     * Shard 0's {@code generator.jfr} as the merged run's: one shard's JVM stands for the generator's costs, as
     * every shard runs the same share of the same load. Without it (a recording that could not be dumped) the run
     * has none, and says so where its costs are read.
     */
    private static void copyGeneratorRecording(Path shardDir, Path outputDir) {
        Path recording = new RunDirectory(shardDir).generatorJfr();
        if (Files.isRegularFile(recording)) {
            try {
                Files.copy(recording, new RunDirectory(outputDir).generatorJfr(), StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new GeneratorException("cannot copy " + recording + " into " + outputDir + ": " + e.getMessage());
            }
        }
    }

    static KubernetesClient connect() {
        Path home = Path.of(System.getProperty("user.home"), ".kube", "config");
        String kubeconfig = System.getenv("KUBECONFIG");
        if (kubeconfig == null && !Files.exists(home) && System.getenv("KUBERNETES_SERVICE_HOST") == null) {
            throw new GeneratorException("--kubernetes found no cluster: set KUBECONFIG or write " + home
                    + " (docs/distributed.md says what the runner needs)");
        }
        // fabric8 would fall back to the in-cluster address and say only that it refused the connection.
        if (kubeconfig != null
                && Arrays.stream(kubeconfig.split(File.pathSeparator)).noneMatch(file -> Files.isRegularFile(Path.of(file)))) {
            throw new GeneratorException("KUBECONFIG names no file that exists (" + kubeconfig + "): point it at your"
                    + " kubeconfig, or unset it to use " + home);
        }
        // One attempt per request: an unreachable API server is said at once, not after ten back-offs.
        Config config = new ConfigBuilder(Config.autoConfigure(null)).withRequestRetryBackoffLimit(0)
                .withConnectionTimeout(5_000).withRequestTimeout(30_000).build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    private static void checkAccess(KubernetesClient client, String namespace) {
        try {
            client.batch().v1().jobs().inNamespace(namespace).list();
        } catch (KubernetesClientException e) {
            throw new GeneratorException("cannot list Jobs in namespace " + namespace + " at " + client.getMasterUrl()
                    + ": " + oneLine(e) + "; check the kubeconfig's cluster and the runner's RBAC (docs/distributed.md)");
        }
    }

    /**
     * How long the runner waits for the Job at most: its shards ready, the lead, the run's hard cap, the grace
     * after it and the copying of the results. A shard runs no JIT warm-up of its own (its JIT warms in the run's
     * warm-up), so none is added.
     */
    private static long jobDeadlineSec(LoadSpec spec, Placement placement) {
        return Math.ceilDiv(placement.readyTimeoutMs() + placement.startLeadMs() + spec.hardCapMs() + END_GRACE_MS
                + COLLECT_MS, 1_000);
    }

    /** Each shard's figures are kept: without --output they go to a new directory, which is named. */
    private static Path newOutputDir(PrintStream progress) {
        try {
            Path dir = Files.createTempDirectory("gauntlet-load-");
            progress.println("gauntlet load: results in " + dir + " (choose the directory with --output)");
            return dir;
        } catch (IOException e) {
            throw new GeneratorException("cannot create a results directory: " + e.getMessage() + "; give one with --output");
        }
    }

    private static String keptResults(List<Path> shardDirs, Path outputDir) {
        return shardDirs.isEmpty() ? "; nothing was merged, and no shard's results were kept"
                : "; nothing was merged; the other shards' results are in " + String.join(", ", shardDirs.stream()
                .map(dir -> outputDir.relativize(dir).toString()).toList()) + " under " + outputDir;
    }

    /** One shard's figures, beside the merged ones: its count, p99 and how late it began. */
    private static String describe(Path shardDir) {
        try {
            RunSummary summary = Json.json().readValue(new RunDirectory(shardDir).summary().toFile(), RunSummary.class);
            ShardStart start = Json.json().readValue(new RunDirectory(shardDir).shardStart().toFile(), ShardStart.class);
            return String.format(Locale.ROOT, "shard %d: %d completed, %.1f requests/s, p99 %.3f ms, %d errors, began %d ms "
                            + "after the common start by its clock", start.index(), summary.completed(),
                    summary.achievedRatePerSec(), summary.responseTime().p99Ms(), summary.errorCount(), start.startLateMs());
        } catch (IOException e) {
            return "shard in " + shardDir + ": " + e.getMessage();
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook deletes the objects as the runner exits.
        }
    }

    /** The API server's own message when it answered, else the innermost cause: "Connection refused", say. */
    static String oneLine(KubernetesClientException e) {
        String message = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : null;
        Throwable cause = e;
        while (message == null && cause != null) {
            if (cause instanceof ConnectException) {
                return "connection refused";
            }
            if (cause.getCause() == null || cause.getCause() == cause) {
                message = Objects.requireNonNullElse(cause.getMessage(), cause.getClass().getSimpleName());
            }
            cause = cause.getCause();
        }
        return message.replaceAll("\\s+", " ").trim();
    }
}
