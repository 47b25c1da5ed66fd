package dev.gauntlet.runner.kubernetes;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.ShardStart;
import dev.gauntlet.loadgen.Generator;
import dev.gauntlet.loadgen.GeneratorException;
import dev.gauntlet.loadgen.ShardMain;
import dev.gauntlet.loadgen.split.ShardedLoad;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.IntStream;

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
    private static final long POLL_MS = 200;
    private static final long REPORT_EVERY_MS = 10_000;
    /** After a shard's hard cap: writing its files and dumping its recording. */
    private static final long END_GRACE_MS = 60_000;
    /** After that: copying the files out of the pods, and the pods' exit once told. */
    private static final long COLLECT_MS = 60_000;
    /** A collected shard exits as soon as its downward-API file changes: it is waited for this long at most. */
    private static final long EXIT_GRACE_MS = 10_000;
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
            Run run = new Run(client, namespace, name, placement, progress);
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

    /** One Job in the cluster: its pods by shard index, what failed, what was collected, and its deletion. */
    private static final class Run {
        private final KubernetesClient client;
        private final String namespace;
        private final String name;
        private final Placement placement;
        private final int shards;
        private final PrintStream progress;
        private final Map<Integer, Pod> pods = new TreeMap<>();
        /** Each shard's failure, in the order they were seen. */
        private final Map<Integer, String> failures = new LinkedHashMap<>();
        /** Each collected shard's directory. */
        private final Map<Integer, Path> collected = new TreeMap<>();
        private volatile boolean deleted;

        Run(KubernetesClient client, String namespace, String name, Placement placement, PrintStream progress) {
            this.client = client;
            this.namespace = namespace;
            this.name = name;
            this.placement = placement;
            this.shards = placement.shards();
            this.progress = progress;
        }

        /**
         * The Job as the owner of the ConfigMap and, when there is one, the Secret: a merge patch, so that the runner
         * needs no right to read Secrets.
         */
        void adopt(OwnerReference job, boolean withSecret) {
            String owned = client.getKubernetesSerialization().asJson(Map.of("metadata", Map.of("ownerReferences", List.of(job))));
            PatchContext merge = PatchContext.of(PatchType.JSON_MERGE);
            // Patched by resource, not by name: by name, fabric8 would read the object first.
            client.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder().withNewMetadata().withName(name)
                    .endMetadata().build()).patch(merge, owned);
            if (withSecret) {
                client.secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata().withName(name)
                        .endMetadata().build()).patch(merge, owned);
            }
        }

        /** Until every shard is Ready; a shard that fails before is named, and so is what holds the others. */
        void awaitReady() {
            long deadline = System.currentTimeMillis() + placement.readyTimeoutMs();
            long nextReport = System.currentTimeMillis() + REPORT_EVERY_MS;
            while (true) {
                refresh();
                if (!failures.isEmpty()) {
                    throw new GeneratorException(failures.values().iterator().next() + " before the common start; "
                            + "nothing was measured");
                }
                long ready = pods.values().stream().filter(Run::isReady).count();
                if (ready == shards) {
                    return;
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new GeneratorException("only " + ready + " of " + shards + " shards were ready after "
                            + seconds(placement.readyTimeoutMs()) + " (" + waitingFor(true) + "); nothing was measured");
                }
                if (System.currentTimeMillis() > nextReport) {
                    progress.printf(Locale.ROOT, "gauntlet load: %d of %d shards ready; %s%n", ready, shards, waitingFor(false));
                    nextReport += REPORT_EVERY_MS;
                }
                pause();
            }
        }

        /** The start instant into the ConfigMap, then into each pod's annotation, which its downward-API file follows. */
        void announceStart(long startAtEpochMs) {
            String value = Long.toString(startAtEpochMs);
            client.configMaps().inNamespace(namespace).withName(name)
                    .edit(configMap -> {
                        configMap.getData().put(ShardJob.START_KEY, value);
                        return configMap;
                    });
            pods.values().forEach(pod -> annotate(pod, ShardJob.START_AT, value));
        }

        /**
         * Copies each shard's files out of its pod into {@code DIR/p<index + 1>} once its run is done, with its output
         * as {@code shard.log}, and tells it so; names each shard that fails, whose output is kept the same way.
         * Returns the directories that hold a whole result. A shard whose files cannot be copied is a failure of
         * the run: the others alone are not the whole load.
         */
        List<Path> collect(ShardCollector collector, Path outputDir, long startAtEpochMs, long deadlineEpochMs) {
            Map<Integer, ShardCollector.Shard> fetches = new TreeMap<>();
            while (true) {
                refresh();
                for (Map.Entry<Integer, Pod> entry : pods.entrySet()) {
                    int index = entry.getKey();
                    Pod pod = entry.getValue();
                    Path dir = outputDir.resolve("p" + (index + 1));
                    if (collected.containsKey(index) || failures.containsKey(index)) {
                        continue;
                    }
                    if (hasEnded(pod)) {
                        // A pod that failed is named by refresh; one that ended well but uncollected lost its files.
                        fail(index, describe(index, pod) + " ended before its results were collected (" + exit(pod) + ")"
                                + lastWords(pod));
                        continue;
                    }
                    if (System.currentTimeMillis() < startAtEpochMs) {
                        continue;
                    }
                    ShardCollector.Shard shard = fetches.computeIfAbsent(index, i -> collector.shard(pod, logOf(pod)));
                    switch (shard.fetch(dir)) {
                        case ShardCollector.Outcome.Running _ -> {
                        }
                        case ShardCollector.Outcome.Collected copied -> {
                            annotate(pod, ShardJob.COLLECTED, Long.toString(System.currentTimeMillis()));
                            collected.put(index, dir);
                            progress.printf(Locale.ROOT, "gauntlet load: shard %d collected, %d KB%n", index,
                                    copied.bytes() / 1024);
                        }
                        case ShardCollector.Outcome.Failed why -> {
                            fail(index, describe(index, pod) + " " + why.reason() + "; its output is in "
                                    + outputDir.relativize(new RunDirectory(dir).shardLog()));
                        }
                    }
                }
                if (collected.size() + failures.size() == shards) {
                    break;
                }
                if (System.currentTimeMillis() > deadlineEpochMs) {
                    String unended = String.join(", ", IntStream.range(0, shards)
                            .filter(index -> !collected.containsKey(index) && !failures.containsKey(index))
                            .mapToObj(index -> "shard " + index + (pods.containsKey(index) ? "" : " (no pod)")).toList());
                    failures.put(-1, unended + " not collected past the hard cap");
                    break;
                }
                pause();
            }
            awaitExit(collected.keySet());
            // Last, so that each log is whole: a collected shard's ends with its exit, a failed one's with why.
            pods.forEach((index, pod) -> writeLog(pod, outputDir.resolve("p" + (index + 1))));
            return List.copyOf(collected.values());
        }

        /** The collected shards end as soon as they see their annotation: their whole output is then in their log. */
        private void awaitExit(Set<Integer> collected) {
            long deadline = System.currentTimeMillis() + EXIT_GRACE_MS;
            while (System.currentTimeMillis() < deadline) {
                refresh();
                if (collected.stream().allMatch(index -> hasEnded(pods.get(index)))) {
                    return;
                }
                pause();
            }
        }

        /** The first shard that failed, and every other one; empty when all are whole. */
        Optional<String> failure() {
            return failures.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", failures.values()));
        }

        /** Deletes the Job (its pods with it), the ConfigMap and the Secret; once, whoever asks first. */
        synchronized void delete() {
            if (deleted) {
                return;
            }
            deleted = true;
            try {
                client.batch().v1().jobs().inNamespace(namespace).withName(name)
                        .withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
                client.configMaps().inNamespace(namespace).withName(name).delete();
                client.secrets().inNamespace(namespace).withName(name).delete();
            } catch (KubernetesClientException e) {
                progress.println("gauntlet load: could not delete Job, ConfigMap and Secret " + name + " in namespace "
                        + namespace + ": " + oneLine(e) + "; delete them with kubectl delete job,configmap,secret " + name);
            }
        }

        private void refresh() {
            for (Pod pod : client.pods().inNamespace(namespace).withLabel(ShardJob.RUN_LABEL, name).list().getItems()) {
                int index = ShardJob.indexOf(pod);
                pods.put(index, pod);
                if (!failures.containsKey(index) && "Failed".equals(pod.getStatus().getPhase())) {
                    fail(index, describe(index, pod) + " failed: " + exit(pod) + lastWords(pod));
                }
            }
        }

        private void fail(int index, String failure) {
            failures.put(index, failure);
            boolean othersRun = collected.size() + failures.size() < shards;
            progress.println("gauntlet load: " + failure + (othersRun ? "; the other shards run to their end" : ""));
        }

        private void annotate(Pod pod, String key, String value) {
            client.pods().inNamespace(namespace).withName(pod.getMetadata().getName())
                    .edit(p -> {
                        p.getMetadata().getAnnotations().put(key, value);
                        return p;
                    });
        }

        /** The shard's output, beside its files or instead of them. */
        private void writeLog(Pod pod, Path dir) {
            try {
                Files.createDirectories(dir);
                Files.writeString(new RunDirectory(dir).shardLog(), logOf(pod));
            } catch (KubernetesClientException e) {
                progress.println("gauntlet load: the log of pod " + pod.getMetadata().getName() + " cannot be read: " + oneLine(e));
            } catch (IOException e) {
                throw new GeneratorException("cannot write " + dir + ": " + e.getMessage());
            }
        }

        private String describe(int index, Pod pod) {
            return "shard " + index + " of " + shards + " (pod " + pod.getMetadata().getName() + ")";
        }

        /** The shards not Ready, each with its pod and why; with {@code withOutput}, a running one's last line too. */
        private String waitingFor(boolean withOutput) {
            List<String> waiting = new ArrayList<>();
            for (int index = 0; index < shards; index++) {
                Pod pod = pods.get(index);
                if (pod == null) {
                    waiting.add("shard " + index + " has no pod yet");
                } else if (!isReady(pod)) {
                    boolean running = "Running".equals(pod.getStatus().getPhase());
                    waiting.add(describe(index, pod) + " " + pod.getStatus().getPhase() + (running ? ", not ready" : "")
                            + reasonOf(pod) + (withOutput && running ? lastWords(pod) : ""));
                }
            }
            return String.join(", ", waiting);
        }

        private String logOf(Pod pod) {
            return Objects.requireNonNullElse(client.pods().inNamespace(namespace).withName(pod.getMetadata().getName())
                    .inContainer(ShardJob.CONTAINER).getLog(), "");
        }

        private String lastWords(Pod pod) {
            try {
                List<String> said = logOf(pod).lines().filter(line -> !line.isBlank()).toList();
                return said.isEmpty() ? "" : "; its last output: " + said.getLast().trim();
            } catch (KubernetesClientException e) {
                return "; its log could not be read: " + oneLine(e);
            }
        }

        private static String exit(Pod pod) {
            ContainerStateTerminated terminated = terminated(pod);
            if (terminated == null) {
                return Objects.requireNonNullElse(pod.getStatus().getReason(), "failed") + reasonOf(pod);
            }
            int code = terminated.getExitCode();
            return (code == 137 ? "killed (exit code 137)" : code == ShardMain.MISSED_START
                    ? "missed the common start (exit code " + code + ")" : "exit code " + code)
                    + (terminated.getReason() != null && !"Error".equals(terminated.getReason())
                    && !"Completed".equals(terminated.getReason()) ? ", " + terminated.getReason() : "");
        }

        private static ContainerStateTerminated terminated(Pod pod) {
            ContainerState state = state(pod);
            return state == null ? null : state.getTerminated();
        }

        private static ContainerState state(Pod pod) {
            List<ContainerStatus> statuses = pod.getStatus().getContainerStatuses();
            return statuses == null || statuses.isEmpty() ? null : statuses.getFirst().getState();
        }

        /** Why a pod is not ready: its container's waiting reason (ErrImagePull, say), else its condition's. */
        private static String reasonOf(Pod pod) {
            ContainerState state = state(pod);
            ContainerStateWaiting waiting = state == null ? null : state.getWaiting();
            if (waiting != null && waiting.getReason() != null) {
                return " (" + waiting.getReason() + (waiting.getMessage() == null ? "" : ": " + waiting.getMessage()) + ")";
            }
            List<PodCondition> conditions = pod.getStatus().getConditions();
            return conditions == null ? "" : conditions.stream().filter(c -> "False".equals(c.getStatus()) && c.getReason() != null)
                    .findFirst().map(c -> " (" + c.getReason() + (c.getMessage() == null ? "" : ": " + c.getMessage()) + ")")
                    .orElse("");
        }

        private static boolean isReady(Pod pod) {
            List<PodCondition> conditions = pod.getStatus() == null ? null : pod.getStatus().getConditions();
            return conditions != null && conditions.stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        }

        private static boolean hasEnded(Pod pod) {
            return "Succeeded".equals(pod.getStatus().getPhase()) || "Failed".equals(pod.getStatus().getPhase());
        }

        private static String seconds(long ms) {
            return ms % 1_000 == 0 ? ms / 1_000 + " s" : ms + " ms";
        }

        private static void pause() {
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new GeneratorException("interrupted while the shards ran; their Job is deleted");
            }
        }
    }
}
