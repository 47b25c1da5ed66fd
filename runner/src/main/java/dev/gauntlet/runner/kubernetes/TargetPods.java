package dev.gauntlet.runner.kubernetes;

import dev.gauntlet.api.CpuModel;
import dev.gauntlet.api.TargetCatalogue.TargetEntry;
import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.execution.SuiteTargets;
import dev.gauntlet.runner.execution.TargetEndpoint;
import dev.gauntlet.runner.execution.TargetLauncher;
import dev.gauntlet.runner.metrics.JfrRecording;
import dev.gauntlet.runner.suite.ClusterSettings;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Starts a suite's targets as pods ({@link TargetPodManifest}) and waits for each one's READY line in its log. A
 * pod that cannot start is a {@link UserError} naming it and why — an image that cannot be pulled, a pod no node
 * takes, a JVM that exited — after its log is kept and the pod deleted; the suite records the target's rows as
 * not started and goes on.
 */
final class TargetPods implements SuiteTargets {
    private static final Pattern READY = Pattern.compile("(?m)^READY port=(\\d+) admin=(\\d+)$");
    private static final Pattern CPU = Pattern.compile("(?m)^" + CpuModel.LINE_PREFIX + "(.+)$");
    /** Waiting reasons of a container that will not start by waiting longer. */
    private static final Set<String> HOPELESS = Set.of("ErrImagePull", "ImagePullBackOff", "InvalidImageName",
            "CreateContainerConfigError", "CreateContainerError", "ErrImageNeverPull");
    private static final long POLL_MS = 200;
    private static final long REPORT_EVERY_MS = 10_000;

    private final KubernetesClient client;
    private final String namespace;
    private final String suiteId;
    private final GauntletHome home;
    private final TargetCatalogue catalogue;
    /** Each target's own JVM options, by its name (a suite's {@code JvmOptions::forTarget}). */
    private final Function<String, List<String>> jvmOptionsOf;
    private final ClusterSettings settings;
    private final ClusterSettings.PodSize size;
    private final String tokenSecret;
    private final String adminToken;
    private final long readyTimeoutMs;
    private final long podDeadlineSec;
    private final PrintStream progress;
    private int started;

    TargetPods(KubernetesClient client, String namespace, String suiteId, GauntletHome home, TargetCatalogue catalogue,
               Function<String, List<String>> jvmOptionsOf, ClusterSettings settings, ClusterSettings.PodSize size, String tokenSecret,
               String adminToken, long readyTimeoutMs, long podDeadlineSec, PrintStream progress) {
        this.client = client;
        this.namespace = namespace;
        this.suiteId = suiteId;
        this.home = home;
        this.catalogue = catalogue;
        this.jvmOptionsOf = jvmOptionsOf;
        this.settings = settings;
        this.size = size;
        this.tokenSecret = tokenSecret;
        this.adminToken = adminToken;
        this.readyTimeoutMs = readyTimeoutMs;
        this.podDeadlineSec = podDeadlineSec;
        this.progress = progress;
    }

    private TargetEntry entry(String name) {
        return catalogue.target(name).orElseThrow(() -> new UserError("unknown target '" + name
                + "': ./gauntlet targets lists the names"));
    }

    @Override
    public TargetPod start(String target, Path log) {
        TargetEntry entry = entry(target);
        String name = String.format(Locale.ROOT, "%s-%s-%d", suiteId, podNamePart(target), ++started);
        Pod created = client.pods().inNamespace(namespace).resource(TargetPodManifest.pod(name, suiteId, target, settings,
                size, command(target, entry), tokenSecret, podDeadlineSec)).create();
        progress.printf(Locale.ROOT, "gauntlet: %s starting as pod %s (%s, image %s)%n", target, name, size.describe(),
                settings.image());
        try {
            return awaitReady(entry, created.getMetadata().getName(), log);
        } catch (UserError | KubernetesClientException e) {
            TargetPod failed = new TargetPod(client, namespace, name, entry, null, log, Map.of("pod", name));
            failed.close();
            if (e instanceof KubernetesClientException k) {
                throw new UserError("target " + target + " (pod " + name + "): the Kubernetes API failed: "
                        + KubernetesLoad.oneLine(k));
            }
            throw e;
        }
    }

    /** The target's JVM as on one machine ({@link TargetLauncher#command}), with the image's paths, on the node's addresses. */
    private List<String> command(String target, TargetEntry entry) {
        TargetCatalogue.Technology technology = catalogue.technology(entry.technology());
        List<String> command = new ArrayList<>(List.of("java"));
        command.addAll(technology.jvmOptions());
        command.addAll(TargetLauncher.ALWAYS_JVM_OPTIONS);
        command.addAll(JfrRecording.recordingIn(JfrRecording.NAME, TargetPodManifest.JFR_DIR + "/" + TargetPodManifest.JFR_SETTINGS));
        command.addAll(jvmOptionsOf.apply(target));
        command.addAll(List.of("-cp", inImage(home.classpathOf(technology.module())), TargetLauncher.MAIN_CLASS,
                "--server", entry.serverClass(), "--bind", "0.0.0.0", "--admin-bind", "0.0.0.0"));
        return command;
    }

    /** The checkout's module paths as the image holds them: {@code <root>/targets/jetty/...} → {@code /opt/gauntlet/targets/jetty/...}. */
    private String inImage(String classpath) {
        String root = home.root().toAbsolutePath().toString();
        List<String> entries = new ArrayList<>();
        for (String entry : classpath.split(File.pathSeparator)) {
            entries.add(entry.startsWith(root) ? TargetPodManifest.IMAGE_ROOT + entry.substring(root.length()) : entry);
        }
        return String.join(":", entries);
    }

    private TargetPod awaitReady(TargetEntry entry, String name, Path log) {
        long deadline = System.currentTimeMillis() + readyTimeoutMs;
        long nextReport = System.currentTimeMillis() + REPORT_EVERY_MS;
        while (true) {
            Pod pod = client.pods().inNamespace(namespace).withName(name).get();
            if (pod == null) {
                throw new UserError("target " + entry.name() + ": its pod " + name + " was deleted before it was ready");
            }
            Optional<String> hopeless = hopeless(pod);
            if (hopeless.isPresent()) {
                throw new UserError("target " + entry.name() + " (pod " + name + ") did not start: " + hopeless.get());
            }
            if ("Running".equals(TargetPod.phase(pod))) {
                String text = client.pods().inNamespace(namespace).withName(name).inContainer(TargetPodManifest.CONTAINER).getLog();
                Matcher ready = READY.matcher(text == null ? "" : text);
                if (ready.find()) {
                    writeLog(log, text);
                    Matcher cpu = CPU.matcher(text);
                    String host = pod.getStatus().getHostIP() != null ? pod.getStatus().getHostIP() : pod.getStatus().getPodIP();
                    if (host == null) {
                        throw new UserError("target " + entry.name() + " (pod " + name + ") runs, but its pod has no address");
                    }
                    TargetEndpoint endpoint = new TargetEndpoint(entry.name(), host, Integer.parseInt(ready.group(1)),
                            Integer.parseInt(ready.group(2)), adminToken);
                    progress.printf(Locale.ROOT, "gauntlet: %s is ready on node %s (%s, QoS %s)%n", entry.name(),
                            pod.getSpec().getNodeName(), host, pod.getStatus().getQosClass());
                    return new TargetPod(client, namespace, name, entry, endpoint, log,
                            TargetPod.placement(pod, cpu.find() ? cpu.group(1).trim() : "unknown"));
                }
            }
            if (System.currentTimeMillis() > deadline) {
                throw new UserError("target " + entry.name() + " (pod " + name + ") was not ready within "
                        + readyTimeoutMs / 1000 + " s: " + state(pod));
            }
            if (System.currentTimeMillis() > nextReport) {
                progress.printf(Locale.ROOT, "gauntlet: waiting for %s (pod %s): %s%n", entry.name(), name, state(pod));
                nextReport += REPORT_EVERY_MS;
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UserError("interrupted while target " + entry.name() + " was starting");
            }
        }
    }

    /** Why a pod will not become ready however long one waits: its image, its config, its JVM's exit. */
    private static Optional<String> hopeless(Pod pod) {
        String phase = TargetPod.phase(pod);
        if ("Failed".equals(phase) || "Succeeded".equals(phase)) {
            var terminated = TargetPod.terminated(pod);
            return Optional.of(terminated == null ? "the pod " + phase
                    : "its JVM exited with code " + terminated.getExitCode()
                    + (terminated.getReason() != null && !"Error".equals(terminated.getReason()) ? " (" + terminated.getReason() + ")" : ""));
        }
        return waiting(pod).filter(w -> HOPELESS.contains(w.getReason()))
                .map(w -> w.getReason() + (w.getMessage() == null ? "" : ": " + w.getMessage()));
    }

    /** Where a pod that is not ready stands: its phase, and the reason a container waits or a condition is false. */
    private static String state(Pod pod) {
        String phase = TargetPod.phase(pod);
        Optional<String> waiting = waiting(pod).map(w -> w.getReason() + (w.getMessage() == null ? "" : ": " + w.getMessage()));
        List<PodCondition> conditions = pod.getStatus() == null ? null : pod.getStatus().getConditions();
        Optional<String> condition = conditions == null ? Optional.empty() : conditions.stream()
                .filter(c -> "False".equals(c.getStatus()) && c.getReason() != null).findFirst()
                .map(c -> c.getReason() + (c.getMessage() == null ? "" : ": " + c.getMessage()));
        return phase + waiting.or(() -> condition).map(reason -> " (" + reason + ")").orElse("")
                + ("Running".equals(phase) ? ", no READY line in its log yet" : "");
    }

    private static Optional<ContainerStateWaiting> waiting(Pod pod) {
        List<ContainerStatus> statuses = pod.getStatus() == null ? null : pod.getStatus().getContainerStatuses();
        return statuses == null || statuses.isEmpty() || statuses.getFirst().getState() == null ? Optional.empty()
                : Optional.ofNullable(statuses.getFirst().getState().getWaiting());
    }

    private static void writeLog(Path log, String text) {
        try {
            Files.createDirectories(log.getParent());
            Files.writeString(log, text);
        } catch (IOException e) {
            throw new UserError("cannot write the target's log " + log + ": " + e.getMessage());
        }
    }

    /** A target's name as part of a pod's name: lower case, letters, digits and '-', at most 30 characters. */
    private static String podNamePart(String target) {
        String part = target.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
        return part.length() > 30 ? part.substring(0, 30) : part;
    }
}
