package dev.gauntlet.runner.kubernetes;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.DownwardAPIVolumeFile;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The Job controller, the scheduler and the kubelet, for tests with no cluster: it watches the mock
 * API server for Indexed Jobs, creating for each index the pod a Job controller would, and for pods
 * created directly (a bare pod has no {@code spec.nodeName} yet), which it schedules; and it runs
 * each pod's real command as a local process, as a kubelet would run its (first) container:
 *
 * <ul>
 *   <li>the image is a local directory: a path under {@code /opt/gauntlet} in the command is taken
 *       from {@code imageRoot}, and {@code java} is the JDK running the test;</li>
 *   <li>each volume is a directory of its own (emptyDir; a ConfigMap's and a Secret's keys and a
 *       downward-API volume's fields as files, the latter rewritten when the pod's annotations change);
 *       a mount path in the command (also inside an option's value or a shell's script), the environment or
 *       a probe is its volume's directory;</li>
 *   <li>environment variables from {@code fieldRef} (annotations, labels, name, node and addresses),
 *       {@code secretKeyRef} and {@code configMapKeyRef}; a missing key that is not optional keeps the pod
 *       Pending ({@code CreateContainerConfigError}), as a kubelet does;</li>
 *   <li>an exec readiness probe runs at its period and sets the pod's Ready condition; a pod without one
 *       is Ready once its container runs;</li>
 *   <li>each pod's status has the node's address ({@code hostIP}, and {@code podIP} as host networking
 *       has it), {@code 127.0.0.1}, and its QoS class;</li>
 *   <li>the process's output is the pod's log, served at the API's log path (edited, when a test asks,
 *       as a node that lost part of it would serve it); its exit sets the pod's phase and exit code,
 *       and a Job's counts, indexes and conditions.</li>
 * </ul>
 *
 * <p>A deleted Job's pods are deleted, as its garbage collector would; a deleted pod's process gets
 * SIGTERM and, {@value #GRACE_MS} ms later, SIGKILL, as from a kubelet with that grace period.
 * Nothing is retried. Tests break things with {@link #killPod}, {@link #failImagePull},
 * {@link #neverReady}, {@link #delayStart} and {@link #editLog}.
 */
final class JobControllerStandIn implements AutoCloseable {
    private static final String IMAGE_ROOT = "/opt/gauntlet";
    private static final String INDEX = "batch.kubernetes.io/job-completion-index";
    private static final String NODE_ADDRESS = "127.0.0.1";
    private static final long GRACE_MS = 5_000;
    private static final Pattern MAP_FIELD = Pattern.compile("metadata\\.(annotations|labels)\\['(.+)'\\]");

    private final KubernetesMockServer server;
    private final KubernetesClient client;
    private final String namespace;
    private final Path imageRoot;
    private final Path workDir;
    private final String java;
    private final Map<String, Job> jobs = new LinkedHashMap<>();
    private final List<LocalPod> pods = new CopyOnWriteArrayList<>();
    private final Map<Integer, Long> startDelaysMs = new ConcurrentHashMap<>();
    private final Map<Integer, UnaryOperator<String>> logEdits = new ConcurrentHashMap<>();
    private final List<Predicate<Pod>> imagePullFailures = new CopyOnWriteArrayList<>();
    private final List<Predicate<Pod>> neverReady = new CopyOnWriteArrayList<>();
    private final List<String> endedPhases = new CopyOnWriteArrayList<>();
    private final List<LocalPod> barePodsScheduled = new CopyOnWriteArrayList<>();
    private final Thread loop;
    private volatile boolean closed;
    private volatile RuntimeException broken;
    /** Guards {@link #steps}, the steps taken: what {@link #await} waits on, as the cluster's state changes in steps. */
    private final Object stepLock = new Object();
    private long steps;

    JobControllerStandIn(KubernetesMockServer server, KubernetesClient client, String namespace, Path imageRoot, Path workDir) {
        this.server = server;
        this.client = client;
        this.namespace = namespace;
        this.imageRoot = imageRoot;
        this.workDir = workDir;
        this.java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        this.loop = Thread.ofPlatform().daemon().name("job-controller-stand-in").start(this::loop);
    }

    /** The pod of this index starts its container this much later, as on a node still pulling the image. */
    void delayStart(int index, long delayMs) {
        startDelaysMs.put(index, delayMs);
    }

    /** The API server serves the log of this index's pod so edited, as a node that lost or garbled part of it would. */
    void editLog(int index, UnaryOperator<String> edit) {
        logEdits.put(index, edit);
    }

    /** The Jobs as they were created. */
    synchronized List<Job> jobs() {
        return List.copyOf(jobs.values());
    }

    /** SIGKILL to the running containers of these pods, as {@code kill -9} on their node: exit code 137. */
    void killPod(Predicate<Pod> which) {
        pods.stream().filter(pod -> pod.process != null && which.test(pod.seen)).forEach(pod -> pod.process.destroyForcibly());
    }

    /**
     * These pods' image cannot be pulled: from now on such a pod stays Pending, its container waiting with
     * reason {@code ErrImagePull}, and never runs.
     */
    void failImagePull(Predicate<Pod> which) {
        imagePullFailures.add(which);
    }

    /** From now on these pods' readiness probe fails, whatever the container does. */
    void neverReady(Predicate<Pod> which) {
        neverReady.add(which);
    }

    /** How many containers are still running. */
    long alive() {
        return pods.stream().filter(pod -> pod.process != null && pod.process.isAlive()).count();
    }

    /** The phase each container that ended left its pod in, in the order they ended (not those deleted running). */
    List<String> endedPhases() {
        return List.copyOf(endedPhases);
    }

    void rethrow() {
        if (broken != null) {
            throw broken;
        }
    }

    /** The bare pods (not a Job's) the stand-in scheduled, in order, each as it last saw it; kept once they are gone. */
    List<Pod> barePodsScheduled() {
        return barePodsScheduled.stream().map(pod -> pod.seen).toList();
    }

    /**
     * Waits until {@code condition} holds, checking it after each of the stand-in's steps (a pod's phase, a Job's
     * status and a container's end are seen in a step), at most {@code timeout}; whether it held. Rethrows the
     * stand-in's own failure.
     */
    boolean await(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (true) {
            long seen;
            synchronized (stepLock) {
                seen = steps;
            }
            rethrow();
            if (condition.getAsBoolean()) {
                return true;
            }
            synchronized (stepLock) {
                while (steps == seen) {
                    long leftNs = deadlineNs - System.nanoTime();
                    if (leftNs <= 0 || broken != null) {
                        rethrow();
                        return condition.getAsBoolean();
                    }
                    TimeUnit.NANOSECONDS.timedWait(stepLock, leftNs);
                }
            }
        }
    }

    private void loop() {
        while (!closed) {
            try {
                step();
                synchronized (stepLock) {
                    steps++;
                    stepLock.notifyAll();
                }
                Thread.sleep(50);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!closed) {
                    broken = e;
                    System.err.println("job controller stand-in stopped: " + e);
                    e.printStackTrace();
                    synchronized (stepLock) {
                        stepLock.notifyAll();
                    }
                    return;
                }
            }
        }
    }

    private void step() {
        List<Job> current = client.batch().v1().jobs().inNamespace(namespace).list().getItems();
        for (Job job : current) {
            synchronized (this) {
                if (!jobs.containsKey(job.getMetadata().getName())) {
                    jobs.put(job.getMetadata().getName(), job);
                    for (int index = 0; index < job.getSpec().getCompletions(); index++) {
                        pods.add(createPod(job, index));
                    }
                }
            }
        }
        Set<String> jobNames = current.stream().map(job -> job.getMetadata().getName()).collect(Collectors.toSet());
        Map<String, Pod> inApi = client.pods().inNamespace(namespace).list().getItems().stream()
                .collect(Collectors.toMap(pod -> pod.getMetadata().getName(), Function.identity()));
        Set<String> known = pods.stream().map(pod -> pod.name).collect(Collectors.toSet());
        for (Pod pod : inApi.values().stream().filter(pod -> pod.getSpec().getNodeName() == null
                && !known.contains(pod.getMetadata().getName())).toList()) {
            LocalPod scheduled = schedule(pod);
            pods.add(scheduled);
            barePodsScheduled.add(scheduled);
            inApi.put(scheduled.name, scheduled.seen);
        }
        for (LocalPod pod : pods) {
            Pod seen = inApi.get(pod.name);
            if (seen == null) {
                // A list is no watch: the pod is confirmed gone, by name, before its container is stopped.
                if (client.pods().inNamespace(namespace).withName(pod.name).get() == null) {
                    pod.terminate();
                    pods.remove(pod);
                }
            } else if (pod.job != null && !jobNames.contains(pod.job)) {
                client.pods().inNamespace(namespace).withName(pod.name).delete();
            } else {
                pod.step(seen);
            }
        }
    }

    private LocalPod createPod(Job job, int index) {
        String name = job.getMetadata().getName() + "-" + index + "-" + Long.toString(System.nanoTime() % 100_000, 36);
        Map<String, String> labels = new HashMap<>(job.getSpec().getTemplate().getMetadata().getLabels());
        labels.put("job-name", job.getMetadata().getName());
        labels.put(INDEX, Integer.toString(index));
        Map<String, String> annotations = new HashMap<>();
        if (job.getSpec().getTemplate().getMetadata().getAnnotations() != null) {
            annotations.putAll(job.getSpec().getTemplate().getMetadata().getAnnotations());
        }
        annotations.put(INDEX, Integer.toString(index));
        Pod pod = new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace).withLabels(labels)
                .withAnnotations(annotations).endMetadata()
                .withSpec(job.getSpec().getTemplate().getSpec()).editSpec().withNodeName("node-" + index).endSpec()
                .withNewStatus().withPhase("Pending").withQosClass(qosClass(job.getSpec().getTemplate().getSpec())).endStatus()
                .build();
        client.pods().inNamespace(namespace).resource(pod).create();
        return new LocalPod(job.getMetadata().getName(), index, pod,
                System.currentTimeMillis() + startDelaysMs.getOrDefault(index, 0L));
    }

    /** A pod created directly: onto a node of its own, as the scheduler would bind it. */
    private LocalPod schedule(Pod pod) {
        String name = pod.getMetadata().getName();
        Pod bound = client.pods().inNamespace(namespace).withName(name).edit(p -> {
            p.getSpec().setNodeName("node-" + name);
            return p;
        });
        LocalPod local = new LocalPod(null, -1, bound, System.currentTimeMillis());
        local.setStatus("Pending", false, new ContainerStateBuilder().withNewWaiting().withReason("ContainerCreating")
                .endWaiting().build());
        return local;
    }

    @Override
    public void close() {
        closed = true;
        loop.interrupt();
        try {
            loop.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        pods.stream().filter(pod -> pod.process != null).forEach(pod -> pod.process.destroyForcibly());
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }

    /** One pod on its "node": its volumes, its container's process and its probe. */
    private final class LocalPod {
        /** The Job it runs for; null for a bare pod. */
        final String job;
        /** Its completion index; -1 for a bare pod. */
        final int index;
        final String name;
        final Path dir;
        final Path log;
        final long startAfterEpochMs;
        final Map<String, Path> mounts = new LinkedHashMap<>();
        volatile Pod seen;
        volatile Process process;
        boolean ready;
        boolean ended;
        boolean waiting;
        long nextProbe;
        Map<String, String> annotationsWritten = Map.of();

        LocalPod(String job, int index, Pod pod, long startAfterEpochMs) {
            this.job = job;
            this.index = index;
            this.name = pod.getMetadata().getName();
            this.seen = pod;
            this.dir = workDir.resolve(name);
            this.log = dir.resolve("container.log");
            this.startAfterEpochMs = startAfterEpochMs;
            try {
                Files.createDirectories(dir);
                Files.writeString(log, "");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            // What the API server gets from the kubelet for 'kubectl logs': the container's output so far.
            String logPath = "/api/v1/namespaces/" + namespace + "/pods/" + name + "/log?pretty=false";
            for (String path : List.of(logPath + "&container=" + container(pod).getName(), logPath)) {
                server.expect().get().withPath(path)
                        .andReply(200, request -> logEdits.getOrDefault(index, UnaryOperator.identity()).apply(read(log)))
                        .always();
            }
        }

        void step(Pod pod) {
            seen = pod;
            if (ended) {
                return;
            }
            if (process == null) {
                if (imagePullFailures.stream().anyMatch(failing -> failing.test(pod))) {
                    wait("ErrImagePull", "failed to pull and unpack image \"" + container(pod).getImage() + "\": pull access "
                            + "denied, repository does not exist or may require authorization");
                } else if (System.currentTimeMillis() >= startAfterEpochMs) {
                    start(pod);
                }
                return;
            }
            writeDownwardApi(pod);
            if (!process.isAlive()) {
                end(process.exitValue());
                return;
            }
            Probe readiness = container(pod).getReadinessProbe();
            if (!ready && System.currentTimeMillis() >= nextProbe && readiness != null) {
                nextProbe = System.currentTimeMillis() + 1_000L * Objects.requireNonNullElse(readiness.getPeriodSeconds(), 10);
                if (neverReady.stream().noneMatch(failing -> failing.test(pod)) && probe(readiness.getExec().getCommand())) {
                    ready = true;
                    setStatus("Running", true, null);
                }
            }
        }

        private void start(Pod pod) {
            try {
                Container container = container(pod);
                Map<String, String> environment = new LinkedHashMap<>();
                for (EnvVar variable : Objects.requireNonNullElse(container.getEnv(), List.<EnvVar>of())) {
                    EnvVarSource source = variable.getValueFrom();
                    if (source == null) {
                        environment.put(variable.getName(), local(variable.getValue()));
                    } else if (source.getFieldRef() != null) {
                        environment.put(variable.getName(), field(pod, source.getFieldRef().getFieldPath()));
                    } else {
                        Optional<String> value = keyed(source);
                        if (value.isPresent()) {
                            environment.put(variable.getName(), value.get());
                        } else if (!optional(source)) {
                            wait("CreateContainerConfigError", "couldn't find the key of " + variable.getName() + "'s source");
                            return;
                        }
                    }
                }
                for (Volume volume : Objects.requireNonNullElse(pod.getSpec().getVolumes(), List.<Volume>of())) {
                    Path volumeDir = Files.createDirectories(dir.resolve("volumes").resolve(volume.getName()));
                    Map<String, String> files = volume.getConfigMap() != null ? configMap(volume.getConfigMap().getName())
                            : volume.getSecret() != null ? secret(volume.getSecret().getSecretName()) : Map.of();
                    for (Map.Entry<String, String> file : files.entrySet()) {
                        Files.writeString(volumeDir.resolve(file.getKey()), file.getValue());
                    }
                    for (VolumeMount mount : Objects.requireNonNullElse(container.getVolumeMounts(), List.<VolumeMount>of())) {
                        if (mount.getName().equals(volume.getName())) {
                            mounts.put(mount.getMountPath(), volumeDir);
                        }
                    }
                }
                writeDownwardApi(pod);
                List<String> command = new ArrayList<>(container.getCommand());
                command.addAll(Objects.requireNonNullElse(container.getArgs(), List.of()));
                ProcessBuilder builder = new ProcessBuilder(localCommand(command)).redirectErrorStream(true)
                        .redirectOutput(log.toFile());
                builder.environment().putAll(environment);
                process = builder.start();
                waiting = false;
                // Without a readiness probe a kubelet counts a running container as ready.
                ready = container.getReadinessProbe() == null;
                setStatus("Running", ready, null);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** A {@code secretKeyRef}'s or {@code configMapKeyRef}'s value; empty when its object or key is missing. */
        private Optional<String> keyed(EnvVarSource source) {
            return Optional.ofNullable(source.getSecretKeyRef() != null
                    ? secret(source.getSecretKeyRef().getName()).get(source.getSecretKeyRef().getKey())
                    : configMap(source.getConfigMapKeyRef().getName()).get(source.getConfigMapKeyRef().getKey()));
        }

        private static boolean optional(EnvVarSource source) {
            return Boolean.TRUE.equals(source.getSecretKeyRef() != null ? source.getSecretKeyRef().getOptional()
                    : source.getConfigMapKeyRef().getOptional());
        }

        private void wait(String reason, String message) {
            if (!waiting) {
                waiting = true;
                setStatus("Pending", false, new ContainerStateBuilder().withNewWaiting().withReason(reason)
                        .withMessage(message).endWaiting().build());
            }
        }

        private void writeDownwardApi(Pod pod) {
            Map<String, String> annotations = pod.getMetadata().getAnnotations();
            if (annotations.equals(annotationsWritten)) {
                return;
            }
            annotationsWritten = Map.copyOf(annotations);
            for (Volume volume : Objects.requireNonNullElse(pod.getSpec().getVolumes(), List.<Volume>of())) {
                if (volume.getDownwardAPI() == null) {
                    continue;
                }
                for (DownwardAPIVolumeFile item : volume.getDownwardAPI().getItems()) {
                    Path file = dir.resolve("volumes").resolve(volume.getName()).resolve(item.getPath());
                    writeAtomically(file, field(pod, item.getFieldRef().getFieldPath()));
                }
            }
        }

        private boolean probe(List<String> command) {
            try {
                Process probe = new ProcessBuilder(localCommand(command)).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                return probe.waitFor(5, TimeUnit.SECONDS) && probe.exitValue() == 0;
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        private void end(int exitCode) {
            ended = true;
            String phase = exitCode == 0 ? "Succeeded" : "Failed";
            setStatus(phase, false, new ContainerStateBuilder().withNewTerminated().withExitCode(exitCode)
                    .withReason(exitCode == 0 ? "Completed" : "Error").endTerminated().build());
            endedPhases.add(phase);
            if (job != null) {
                updateJob();
            }
        }

        /** The pod's status as its kubelet reports it; a null {@code state} is a running container. */
        private void setStatus(String phase, boolean isReady, ContainerState state) {
            String containerName = container(seen).getName();
            client.pods().inNamespace(namespace).withName(name).editStatus(pod -> {
                if (pod.getStatus() == null) {
                    pod.setStatus(new PodStatus());
                }
                pod.getStatus().setPhase(phase);
                pod.getStatus().setHostIP(NODE_ADDRESS);
                pod.getStatus().setPodIP(NODE_ADDRESS);
                pod.getStatus().setQosClass(qosClass(pod.getSpec()));
                pod.getStatus().setConditions(List.of(new PodConditionBuilder().withType("Ready")
                        .withStatus(isReady ? "True" : "False").withReason(isReady ? null : "ContainersNotReady")
                        .withMessage(isReady ? null : "containers with unready status: [" + containerName + "]").build()));
                pod.getStatus().setContainerStatuses(List.of(new ContainerStatusBuilder().withName(containerName)
                        .withReady(isReady).withState(state != null ? state
                                : new ContainerStateBuilder().withNewRunning().endRunning().build()).build()));
                return pod;
            });
        }

        /** The Job's status as its controller keeps it: counts, indexes, and its end. */
        private void updateJob() {
            List<LocalPod> mine = pods.stream().filter(pod -> job.equals(pod.job)).toList();
            List<Integer> succeeded = new ArrayList<>();
            List<Integer> failed = new ArrayList<>();
            for (LocalPod pod : mine) {
                if (pod.ended && pod.process.exitValue() == 0) {
                    succeeded.add(pod.index);
                } else if (pod.ended) {
                    failed.add(pod.index);
                }
            }
            boolean done = succeeded.size() + failed.size() == mine.size();
            client.batch().v1().jobs().inNamespace(namespace).withName(job).editStatus(j -> {
                if (j.getStatus() == null) {
                    j.setStatus(new JobStatus());
                }
                j.getStatus().setActive(mine.size() - succeeded.size() - failed.size());
                j.getStatus().setSucceeded(succeeded.size());
                j.getStatus().setFailed(failed.size());
                j.getStatus().setCompletedIndexes(join(succeeded));
                j.getStatus().setFailedIndexes(join(failed));
                if (done) {
                    j.getStatus().setConditions(List.of(new JobConditionBuilder()
                            .withType(failed.isEmpty() ? "Complete" : "Failed").withStatus("True")
                            .withReason(failed.isEmpty() ? null : "FailedIndexes").build()));
                }
                return j;
            });
        }

        /** The pod is gone from the API: SIGTERM, then SIGKILL after the grace period, off the stand-in's loop. */
        void terminate() {
            Process running = process;
            if (running == null || !running.isAlive()) {
                return;
            }
            running.destroy();
            Thread.ofPlatform().daemon().name("kubelet-grace-" + name).start(() -> {
                try {
                    if (!running.waitFor(GRACE_MS, TimeUnit.MILLISECONDS)) {
                        running.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    running.destroyForcibly();
                }
            });
        }

        private List<String> localCommand(List<String> command) {
            List<String> local = new ArrayList<>();
            for (String arg : command) {
                local.add(local.isEmpty() && arg.equals("java") ? java : local(arg));
            }
            return local;
        }

        /**
         * The paths in a container's argument as the local directories they are: the image's, or a volume's. A path
         * may also stand inside an option ({@code -XX:StartFlightRecording=settings=/etc/...}) or a shell's script.
         */
        private String local(String value) {
            Map<String, Path> roots = new LinkedHashMap<>(mounts);
            roots.put(IMAGE_ROOT, imageRoot);
            String local = value;
            for (Map.Entry<String, Path> root : roots.entrySet()) {
                local = local.replaceAll("(?<=^|[=,:\\s'\"])" + Pattern.quote(root.getKey()) + "(?![\\w.-])",
                        Matcher.quoteReplacement(root.getValue().toString()));
            }
            return local;
        }
    }

    private static Container container(Pod pod) {
        return pod.getSpec().getContainers().getFirst();
    }

    private Map<String, String> configMap(String name) {
        ConfigMap configMap = client.configMaps().inNamespace(namespace).withName(name).get();
        return configMap == null || configMap.getData() == null ? Map.of() : configMap.getData();
    }

    /** A Secret's keys: its {@code data} decoded; the mock API server keeps {@code stringData} as it was given. */
    private Map<String, String> secret(String name) {
        Secret secret = client.secrets().inNamespace(namespace).withName(name).get();
        Map<String, String> keys = new HashMap<>();
        if (secret != null && secret.getStringData() != null) {
            keys.putAll(secret.getStringData());
        }
        if (secret != null && secret.getData() != null) {
            secret.getData().forEach((key, value) -> keys.put(key,
                    new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8)));
        }
        return keys;
    }

    private static String field(Pod pod, String fieldPath) {
        Matcher matcher = MAP_FIELD.matcher(fieldPath);
        if (matcher.matches()) {
            Map<String, String> map = matcher.group(1).equals("labels") ? pod.getMetadata().getLabels()
                    : pod.getMetadata().getAnnotations();
            return map == null ? "" : map.getOrDefault(matcher.group(2), "");
        }
        return switch (fieldPath) {
            case "metadata.name" -> pod.getMetadata().getName();
            case "metadata.namespace" -> pod.getMetadata().getNamespace();
            case "spec.nodeName" -> pod.getSpec().getNodeName();
            case "status.hostIP", "status.podIP" -> NODE_ADDRESS;
            default -> throw new IllegalArgumentException("the stand-in does not know the field " + fieldPath);
        };
    }

    /**
     * Guaranteed when every container's requests equal its limits for CPU and memory (a request left out is its
     * limit), BestEffort when no container asks for either, else Burstable.
     */
    static String qosClass(PodSpec spec) {
        boolean any = false;
        boolean guaranteed = true;
        for (Container container : spec.getContainers()) {
            Map<String, Quantity> limits = container.getResources() == null || container.getResources().getLimits() == null
                    ? Map.of() : container.getResources().getLimits();
            Map<String, Quantity> requests = container.getResources() == null || container.getResources().getRequests() == null
                    ? Map.of() : container.getResources().getRequests();
            for (String resource : List.of("cpu", "memory")) {
                Quantity limit = limits.get(resource);
                Quantity request = requests.getOrDefault(resource, limit);
                any |= limit != null || request != null;
                guaranteed &= limit != null && limit.getNumericalAmount().compareTo(request.getNumericalAmount()) == 0;
            }
        }
        return !any ? "BestEffort" : guaranteed ? "Guaranteed" : "Burstable";
    }

    private static String join(List<Integer> indexes) {
        return indexes.isEmpty() ? null : String.join(",", indexes.stream().sorted().map(String::valueOf).toList());
    }

    private static void writeAtomically(Path file, String text) {
        try {
            Path temporary = file.resolveSibling("." + file.getFileName() + ".tmp");
            Files.writeString(temporary, text);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
