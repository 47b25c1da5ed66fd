package dev.gauntlet.runner.kubernetes;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.ShardStart;
import dev.gauntlet.loadgen.Generator;
import dev.gauntlet.loadgen.GeneratorException;
import dev.gauntlet.loadgen.ShardMain;
import dev.gauntlet.loadgen.split.ShardArchive;
import dev.gauntlet.loadgen.split.ShardedLoad;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.IntStream;

/**
 * {@code gauntlet load --kubernetes}: the load as an Indexed Job of {@link ShardJob}, through the
 * kubeconfig's cluster (fabric8's client, on the JDK's HTTP client).
 *
 * <ol>
 *   <li>creates the ConfigMap with the whole load's spec and the Job of N pods;</li>
 *   <li>waits until every pod is Ready (its checks against the target passed), then sets the common
 *       start a lead ahead: in the ConfigMap (the record) and in each pod's annotation (the signal);</li>
 *   <li>waits for every pod to end; a failed shard is named at once with its last output, and the
 *       others run to their end;</li>
 *   <li>reads each shard's files back from its pod's log into {@code DIR/p<index + 1>}, with its
 *       output as {@code shard.log};</li>
 *   <li>deletes the Job and the ConfigMap (also when the runner is stopped), then merges the shards
 *       into {@code DIR} — or, when one failed or its files cannot be read from its log, ends with one line
 *       naming it, the others' results kept.</li>
 * </ol>
 */
public final class KubernetesLoad implements ShardedLoad {
    private static final long POLL_MS = 200;
    /** Scheduling, pulling the image and the JVM's start: generous, and said every 10 s. */
    private static final long READY_TIMEOUT_MS = 300_000;
    private static final long REPORT_EVERY_MS = 10_000;
    /** After a shard's hard cap: writing and printing its files. */
    private static final long END_GRACE_MS = 60_000;
    private static final DateTimeFormatter NAME_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT);
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT);

    @Override
    public RunSummary run(LoadSpec spec, Placement placement, Path outputDir, PrintStream progress) {
        try (KubernetesClient client = connect()) {
            String namespace = placement.namespace() != null ? placement.namespace()
                    : Objects.requireNonNullElse(client.getNamespace(), "default");
            checkAccess(client, namespace);
            Path dir = outputDir != null ? outputDir : newOutputDir(progress);
            String name = String.format(Locale.ROOT, "gauntlet-%s-%04x", LocalDateTime.now().format(NAME_TIME),
                    ThreadLocalRandom.current().nextInt(0x10000));
            Run run = new Run(client, namespace, name, placement.shards(), progress);
            Thread cleanUp = new Thread(run::delete, "gauntlet-kubernetes-cleanup");
            Runtime.getRuntime().addShutdownHook(cleanUp);
            try {
                client.configMaps().inNamespace(namespace).resource(ShardJob.configMap(name, spec)).create();
                long deadlineSec = jobDeadlineSec(spec, placement);
                client.batch().v1().jobs().inNamespace(namespace).resource(ShardJob.job(name, placement, deadlineSec)).create();
                progress.printf(Locale.ROOT, "gauntlet load: %s -> %s over %d shards, Indexed Job %s in namespace %s (image %s)%n",
                        spec.model().describe(), spec.url(), placement.shards(), name, namespace, placement.image());
                run.awaitReady();
                long startAt = System.currentTimeMillis() + placement.startLeadMs();
                run.announceStart(startAt);
                progress.printf(Locale.ROOT, "gauntlet load: every shard is ready; the common start is at %s%n",
                        CLOCK.format(Instant.ofEpochMilli(startAt).atZone(ZoneId.systemDefault())));
                run.awaitEnd(startAt + spec.hardCapMs() + END_GRACE_MS);
                List<Path> shardDirs = run.collect(dir);
                run.failure().ifPresent(failure -> {
                    throw new GeneratorException(failure + keptResults(shardDirs, dir));
                });
                RunSummary merged = Generator.merge(spec, shardDirs, dir);
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

    static KubernetesClient connect() {
        Path home = Path.of(System.getProperty("user.home"), ".kube", "config");
        if (System.getenv("KUBECONFIG") == null && !Files.exists(home) && System.getenv("KUBERNETES_SERVICE_HOST") == null) {
            throw new GeneratorException("--kubernetes found no cluster: set KUBECONFIG or write " + home
                    + " (docs/distributed.md says what the runner needs)");
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
     * How long the runner waits for the Job at most: its shards ready, the lead, the run's hard cap and the grace
     * after it. A shard runs no JIT warm-up of its own (its JIT warms in the run's warm-up), so none is added.
     */
    private static long jobDeadlineSec(LoadSpec spec, Placement placement) {
        return Math.ceilDiv(READY_TIMEOUT_MS + placement.startLeadMs() + spec.hardCapMs() + END_GRACE_MS, 1_000);
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

    /** One Job in the cluster: its pods by shard index, what failed, and its deletion. */
    private static final class Run {
        private final KubernetesClient client;
        private final String namespace;
        private final String name;
        private final int shards;
        private final PrintStream progress;
        private final Map<Integer, Pod> pods = new TreeMap<>();
        private String failure;
        private final List<String> unreadable = new ArrayList<>();
        private volatile boolean deleted;

        Run(KubernetesClient client, String namespace, String name, int shards, PrintStream progress) {
            this.client = client;
            this.namespace = namespace;
            this.name = name;
            this.shards = shards;
            this.progress = progress;
        }

        /** Until every shard is Ready; a shard that fails before is named, and so is what holds the others. */
        void awaitReady() {
            long deadline = System.currentTimeMillis() + READY_TIMEOUT_MS;
            long nextReport = System.currentTimeMillis() + REPORT_EVERY_MS;
            while (true) {
                refresh();
                if (failure != null) {
                    throw new GeneratorException(failure + " before the common start; nothing was measured");
                }
                long ready = pods.values().stream().filter(Run::isReady).count();
                if (ready == shards) {
                    return;
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new GeneratorException("only " + ready + " of " + shards + " shards were ready after "
                            + READY_TIMEOUT_MS / 1000 + " s (" + waitingFor() + "); nothing was measured");
                }
                if (System.currentTimeMillis() > nextReport) {
                    progress.printf(Locale.ROOT, "gauntlet load: %d of %d shards ready; %s%n", ready, shards, waitingFor());
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
            for (Pod pod : pods.values()) {
                client.pods().inNamespace(namespace).withName(pod.getMetadata().getName())
                        .edit(p -> {
                            p.getMetadata().getAnnotations().put(ShardJob.START_AT, value);
                            return p;
                        });
            }
        }

        /** Until every shard's pod has ended; the first to fail is named at once. */
        void awaitEnd(long deadlineEpochMs) {
            while (true) {
                refresh();
                if (pods.size() == shards && pods.values().stream().allMatch(Run::hasEnded)) {
                    return;
                }
                if (System.currentTimeMillis() > deadlineEpochMs) {
                    String unended = String.join(", ", IntStream.range(0, shards)
                            .filter(index -> !pods.containsKey(index) || !hasEnded(pods.get(index)))
                            .mapToObj(index -> "shard " + index + (pods.containsKey(index) ? "" : " (no pod)")).toList());
                    failure = Objects.requireNonNullElse(failure, unended + " not ended past the hard cap");
                    return;
                }
                pause();
            }
        }

        /**
         * Each ended shard's output into {@code DIR/p<index + 1>/shard.log} and its files beside it; the
         * directories that hold a whole result. A shard that succeeded but whose files cannot be read is a
         * failure of the run: the others alone are not the whole load.
         */
        List<Path> collect(Path outputDir) {
            List<Path> complete = new ArrayList<>();
            for (Map.Entry<Integer, Pod> entry : pods.entrySet()) {
                Pod pod = entry.getValue();
                Path dir = outputDir.resolve("p" + (entry.getKey() + 1));
                try {
                    List<String> log = lines(logOf(pod));
                    Files.createDirectories(dir);
                    Files.write(new RunDirectory(dir).shardLog(), ShardArchive.withoutArchive(log));
                    if (isSucceeded(pod)) {
                        ShardArchive.extract(log, dir);
                        complete.add(dir);
                    }
                } catch (KubernetesClientException e) {
                    if (isSucceeded(pod)) {
                        unreadable.add(describe(entry.getKey(), pod) + " succeeded, but its log cannot be read: " + oneLine(e));
                    }
                } catch (ShardArchive.Unreadable e) {
                    unreadable.add(describe(entry.getKey(), pod) + " succeeded, but its results cannot be read from its log: "
                            + e.getMessage() + "; its output is in " + outputDir.relativize(new RunDirectory(dir).shardLog()));
                } catch (IOException e) {
                    throw new GeneratorException("cannot write " + dir + ": " + e.getMessage());
                }
            }
            return complete;
        }

        /** The first shard that failed, and every one whose results could not be read; empty when all are whole. */
        Optional<String> failure() {
            List<String> failures = new ArrayList<>(unreadable);
            if (failure != null) {
                failures.addFirst(failure);
            }
            return failures.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", failures));
        }

        /** Deletes the Job (its pods with it) and the ConfigMap; once, whoever asks first. */
        synchronized void delete() {
            if (deleted) {
                return;
            }
            deleted = true;
            try {
                client.batch().v1().jobs().inNamespace(namespace).withName(name)
                        .withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
                client.configMaps().inNamespace(namespace).withName(name).delete();
            } catch (KubernetesClientException e) {
                progress.println("gauntlet load: could not delete Job and ConfigMap " + name + " in namespace " + namespace
                        + ": " + oneLine(e) + "; delete them with kubectl delete job,configmap " + name);
            }
        }

        private void refresh() {
            for (Pod pod : client.pods().inNamespace(namespace).withLabel(ShardJob.RUN_LABEL, name).list().getItems()) {
                int index = ShardJob.indexOf(pod);
                pods.put(index, pod);
                if (failure == null && "Failed".equals(pod.getStatus().getPhase())) {
                    failure = describe(index, pod) + " failed: " + exit(pod) + lastWords(pod);
                    progress.println("gauntlet load: " + failure + "; the other shards run to their end");
                }
            }
        }

        private String describe(int index, Pod pod) {
            return "shard " + index + " of " + shards + " (pod " + pod.getMetadata().getName() + ")";
        }

        private String waitingFor() {
            List<String> waiting = new ArrayList<>();
            for (int index = 0; index < shards; index++) {
                Pod pod = pods.get(index);
                waiting.add(pod == null ? "shard " + index + " has no pod yet" : isReady(pod) ? null
                        : "shard " + index + " " + pod.getStatus().getPhase() + reasonOf(pod));
            }
            return String.join(", ", waiting.stream().filter(Objects::nonNull).toList());
        }

        private String logOf(Pod pod) {
            return client.pods().inNamespace(namespace).withName(pod.getMetadata().getName()).inContainer(ShardJob.CONTAINER).getLog();
        }

        private static List<String> lines(String log) {
            return log == null || log.isEmpty() ? List.of() : List.of(log.split("\n"));
        }

        private String lastWords(Pod pod) {
            try {
                List<String> said = ShardArchive.withoutArchive(lines(logOf(pod)));
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
                    + (terminated.getReason() != null && !"Error".equals(terminated.getReason()) ? ", " + terminated.getReason() : "");
        }

        private static ContainerStateTerminated terminated(Pod pod) {
            List<ContainerStatus> statuses = pod.getStatus().getContainerStatuses();
            return statuses == null || statuses.isEmpty() || statuses.getFirst().getState() == null ? null
                    : statuses.getFirst().getState().getTerminated();
        }

        private static String reasonOf(Pod pod) {
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
            return isSucceeded(pod) || "Failed".equals(pod.getStatus().getPhase());
        }

        private static boolean isSucceeded(Pod pod) {
            return "Succeeded".equals(pod.getStatus().getPhase());
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
