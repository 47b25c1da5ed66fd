package dev.gauntlet.runner.kubernetes;

import dev.gauntlet.api.TargetCatalogue.TargetEntry;
import dev.gauntlet.runner.execution.SuiteTarget;
import dev.gauntlet.runner.execution.TargetEndpoint;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One target running as a pod ({@link TargetPodManifest}), from its READY line to its deletion. Alive while its
 * pod runs and its container has not ended; its log is copied to the suite's target log when it dies or is
 * closed, before the pod is deleted.
 */
final class TargetPod implements SuiteTarget {
    private static final int QUOTED_LOG_LINES = 5;
    private static final long POLL_MS = 200;
    private static final Duration DELETE_WAIT = Duration.ofSeconds(15);

    private final KubernetesClient client;
    private final String namespace;
    private final String name;
    private final TargetEntry entry;
    private final TargetEndpoint endpoint;
    private final Path log;
    private final Map<String, Object> placement;
    private boolean logSaved;

    /** @param placement where it runs, as {@code isolation.json} records it: pod, node, QoS class, CPU model, size */
    TargetPod(KubernetesClient client, String namespace, String name, TargetEntry entry, TargetEndpoint endpoint, Path log,
              Map<String, Object> placement) {
        this.client = client;
        this.namespace = namespace;
        this.name = name;
        this.entry = entry;
        this.endpoint = endpoint;
        this.log = log;
        this.placement = Map.copyOf(placement);
    }

    @Override
    public TargetEntry entry() {
        return entry;
    }

    @Override
    public TargetEndpoint endpoint() {
        return endpoint;
    }

    @Override
    public boolean isAlive() {
        Pod pod = pod();
        return pod != null && "Running".equals(phase(pod)) && terminated(pod) == null;
    }

    @Override
    public boolean exitsWithin(Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        while (isAlive()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return !isAlive();
            }
        }
        return true;
    }

    @Override
    public String deathNotice() {
        return "target " + entry.name() + " (pod " + name + " on node " + placement.get("node") + ") " + howItEnded()
                + " (" + lastWords() + ")";
    }

    @Override
    public String diedNote() {
        ContainerStateTerminated terminated = terminated(pod());
        return terminated != null && "OOMKilled".equals(terminated.getReason()) ? "target died: OOMKilled" : "target died";
    }

    @Override
    public Map<String, Object> isolation() {
        return placement;
    }

    @Override
    public String copyRecording(Instant from, Instant to, Path file) {
        return isAlive() ? endpoint.copyRecording(from, to, file)
                : "the target's pod had ended before its recording could be copied";
    }

    /** Its log into the suite's target log, then the pod deleted, waited for a moment. */
    @Override
    public void close() {
        saveLog();
        try {
            client.pods().inNamespace(namespace).withName(name).delete();
            client.pods().inNamespace(namespace).withName(name).waitUntilCondition(pod -> pod == null,
                    DELETE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (KubernetesClientException e) {
            System.err.println("gauntlet: could not delete target pod " + name + " in namespace " + namespace + ": "
                    + KubernetesLoad.oneLine(e) + "; delete it with kubectl delete pod " + name);
        }
    }

    private String howItEnded() {
        Pod pod = pod();
        if (pod == null) {
            return "was deleted";
        }
        ContainerStateTerminated terminated = terminated(pod);
        if (terminated == null) {
            return "stopped running (pod " + phase(pod)
                    + (pod.getStatus() == null || pod.getStatus().getReason() == null ? "" : ", " + pod.getStatus().getReason()) + ")";
        }
        return (terminated.getReason() != null && !"Error".equals(terminated.getReason())
                ? "was " + terminated.getReason() + ", " : "") + "exited with code " + terminated.getExitCode();
    }

    private String lastWords() {
        List<String> lines = saveLog();
        return lines.isEmpty() ? "no output" : "last output: "
                + String.join(" | ", lines.subList(Math.max(0, lines.size() - QUOTED_LOG_LINES), lines.size()));
    }

    /** The pod's log into the target log, once it is final or at the close; its lines. */
    private synchronized List<String> saveLog() {
        try {
            String text = client.pods().inNamespace(namespace).withName(name).inContainer(TargetPodManifest.CONTAINER).getLog();
            if (text != null && !logSaved) {
                Files.createDirectories(log.getParent());
                Files.writeString(log, text);
                logSaved = !isAlive();
            }
            return text == null || text.isEmpty() ? List.of() : text.lines().toList();
        } catch (KubernetesClientException | IOException e) {
            return List.of();
        }
    }

    private Pod pod() {
        return client.pods().inNamespace(namespace).withName(name).get();
    }

    /** The pod's phase; {@code Pending} before the API server has given it a status (as fabric8's mock does not). */
    static String phase(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getPhase() == null ? "Pending" : pod.getStatus().getPhase();
    }

    static ContainerStateTerminated terminated(Pod pod) {
        List<ContainerStatus> statuses = pod == null || pod.getStatus() == null ? null : pod.getStatus().getContainerStatuses();
        return statuses == null || statuses.isEmpty() || statuses.getFirst().getState() == null ? null
                : statuses.getFirst().getState().getTerminated();
    }

    /** The placement map's start: {@code isolation.json} of a target pod. */
    static Map<String, Object> placement(Pod pod, String cpuModel) {
        Map<String, Object> placement = new LinkedHashMap<>();
        placement.put("mechanism", "kubernetes");
        placement.put("pod", pod.getMetadata().getName());
        placement.put("node", pod.getSpec().getNodeName());
        placement.put("qosClass", pod.getStatus().getQosClass());
        placement.put("cpuModel", cpuModel);
        placement.put("address", pod.getStatus().getHostIP());
        placement.put("limits", pod.getSpec().getContainers().getFirst().getResources().getLimits().entrySet().stream()
                .collect(LinkedHashMap::new, (map, e) -> map.put(e.getKey(), e.getValue().toString()), Map::putAll));
        return placement;
    }
}
