package dev.gauntlet.runner.kubernetes;

import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.loadgen.failure.GeneratorException;
import dev.gauntlet.loadgen.split.ShardedLoad.Placement;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * One Job of {@link KubernetesLoad} in the cluster: its pods by shard index, what failed, what was collected, and
 * its deletion. The runner's thread drives it (ready, start, collect); a shutdown hook may delete it meanwhile.
 */
final class JobRun {
    private static final long POLL_MS = 200;
    private static final long REPORT_EVERY_MS = 10_000;
    /** A collected shard exits as soon as its downward-API file changes: it is waited for this long at most. */
    private static final long EXIT_GRACE_MS = 10_000;

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

    JobRun(KubernetesClient client, String namespace, String name, Placement placement, PrintStream progress) {
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
            long ready = pods.values().stream().filter(PodStates::isReady).count();
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
                if (PodStates.hasEnded(pod)) {
                    // A pod that failed is named by refresh; one that ended well but uncollected lost its files.
                    fail(index, describe(index, pod) + " ended before its results were collected (" + PodStates.exit(pod) + ")"
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
            if (collected.stream().allMatch(index -> PodStates.hasEnded(pods.get(index)))) {
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
                    + namespace + ": " + KubernetesLoad.oneLine(e) + "; delete them with kubectl delete job,configmap,secret " + name);
        }
    }

    private void refresh() {
        for (Pod pod : client.pods().inNamespace(namespace).withLabel(ShardJob.RUN_LABEL, name).list().getItems()) {
            int index = ShardJob.indexOf(pod);
            pods.put(index, pod);
            if (!failures.containsKey(index) && "Failed".equals(pod.getStatus().getPhase())) {
                fail(index, describe(index, pod) + " failed: " + PodStates.exit(pod) + lastWords(pod));
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
            progress.println("gauntlet load: the log of pod " + pod.getMetadata().getName() + " cannot be read: " + KubernetesLoad.oneLine(e));
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
            } else if (!PodStates.isReady(pod)) {
                boolean running = "Running".equals(pod.getStatus().getPhase());
                waiting.add(describe(index, pod) + " " + pod.getStatus().getPhase() + (running ? ", not ready" : "")
                        + PodStates.reasonOf(pod) + (withOutput && running ? lastWords(pod) : ""));
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
            return "; its log could not be read: " + KubernetesLoad.oneLine(e);
        }
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
