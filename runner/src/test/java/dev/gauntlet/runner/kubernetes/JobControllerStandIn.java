package dev.gauntlet.runner.kubernetes;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.DownwardAPIVolumeFile;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Job controller and the kubelet, for tests with no cluster: it watches the mock API server
 * for Indexed Jobs and, for each index, creates the pod a Job controller would and runs the pod
 * template's real command as a local process, as a kubelet would run the container:
 *
 * <ul>
 *   <li>the image is a local directory: a path under {@code /opt/gauntlet} in the command is taken
 *       from {@code imageRoot}, and {@code java} is the JDK running the test;</li>
 *   <li>each volume is a directory of its own (a ConfigMap's keys and a downward-API volume's
 *       annotations as files, rewritten when the pod's annotations change); a mount path in the
 *       command, the environment or a probe is its volume's directory;</li>
 *   <li>{@code fieldRef} environment variables come from the pod's annotations;</li>
 *   <li>an exec readiness probe runs at its period and sets the pod's Ready condition;</li>
 *   <li>the process's output is the pod's log, served at the API's log path (edited, when a test asks,
 *       as a node that lost part of it would serve it); its exit sets the pod's phase and exit code,
 *       and the Job's counts, indexes and conditions.</li>
 * </ul>
 *
 * <p>A deleted Job's processes are killed and its pods deleted. Nothing is retried.
 */
final class JobControllerStandIn implements AutoCloseable {
    private static final String IMAGE_ROOT = "/opt/gauntlet";
    private static final String INDEX = "batch.kubernetes.io/job-completion-index";
    private static final Pattern ANNOTATION = Pattern.compile("metadata\\.annotations\\['(.+)'\\]");

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
    private final Thread loop;
    private volatile boolean closed;
    private volatile RuntimeException broken;

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

    /** SIGKILL to the container of this index, as {@code kill -9} on its node. */
    void kill(int index) {
        pods.stream().filter(pod -> pod.index == index && pod.process != null).forEach(pod -> pod.process.destroyForcibly());
    }

    /** How many containers are still running. */
    long alive() {
        return pods.stream().filter(pod -> pod.process != null && pod.process.isAlive()).count();
    }

    void rethrow() {
        if (broken != null) {
            throw broken;
        }
    }

    private void loop() {
        while (!closed) {
            try {
                step();
                Thread.sleep(50);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!closed) {
                    broken = e;
                    System.err.println("job controller stand-in stopped: " + e);
                    e.printStackTrace();
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
        List<String> names = current.stream().map(job -> job.getMetadata().getName()).toList();
        for (LocalPod pod : pods) {
            if (!names.contains(pod.job)) {
                pod.remove();
                pods.remove(pod);
            } else {
                pod.step();
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
                .withNewStatus().withPhase("Pending").endStatus().build();
        client.pods().inNamespace(namespace).resource(pod).create();
        Path podDir = workDir.resolve(name);
        Path log = podDir.resolve("container.log");
        try {
            Files.createDirectories(podDir);
            Files.writeString(log, "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // What the API server gets from the kubelet for 'kubectl logs': the container's output so far.
        server.expect().get().withPath("/api/v1/namespaces/" + namespace + "/pods/" + name + "/log?pretty=false&container="
                        + pod.getSpec().getContainers().getFirst().getName())
                .andReply(200, request -> logEdits.getOrDefault(index, UnaryOperator.identity()).apply(read(log)))
                .always();
        return new LocalPod(job.getMetadata().getName(), index, name, podDir, log,
                System.currentTimeMillis() + startDelaysMs.getOrDefault(index, 0L));
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
        pods.forEach(LocalPod::remove);
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
        final String job;
        final int index;
        final String name;
        final Path dir;
        final Path log;
        final long startAfterEpochMs;
        final Map<String, Path> mounts = new LinkedHashMap<>();
        Process process;
        boolean ready;
        boolean ended;
        long nextProbe;
        Map<String, String> annotationsWritten = Map.of();

        LocalPod(String job, int index, String name, Path dir, Path log, long startAfterEpochMs) {
            this.job = job;
            this.index = index;
            this.name = name;
            this.dir = dir;
            this.log = log;
            this.startAfterEpochMs = startAfterEpochMs;
        }

        void step() {
            if (ended) {
                return;
            }
            Pod pod = client.pods().inNamespace(namespace).withName(name).get();
            if (pod == null) {
                return;
            }
            if (process == null) {
                if (System.currentTimeMillis() >= startAfterEpochMs) {
                    start(pod);
                }
                return;
            }
            writeDownwardApi(pod);
            if (!process.isAlive()) {
                end(process.exitValue());
                return;
            }
            if (!ready && System.currentTimeMillis() >= nextProbe) {
                Container container = pod.getSpec().getContainers().getFirst();
                nextProbe = System.currentTimeMillis() + 1_000L * container.getReadinessProbe().getPeriodSeconds();
                if (probe(container.getReadinessProbe().getExec().getCommand())) {
                    ready = true;
                    setStatus("Running", true, null);
                }
            }
        }

        private void start(Pod pod) {
            try {
                for (Volume volume : pod.getSpec().getVolumes()) {
                    Path volumeDir = Files.createDirectories(dir.resolve("volumes").resolve(volume.getName()));
                    if (volume.getConfigMap() != null) {
                        Map<String, String> data = client.configMaps().inNamespace(namespace)
                                .withName(volume.getConfigMap().getName()).get().getData();
                        for (Map.Entry<String, String> entry : data.entrySet()) {
                            Files.writeString(volumeDir.resolve(entry.getKey()), entry.getValue());
                        }
                    }
                    Container container = pod.getSpec().getContainers().getFirst();
                    for (VolumeMount mount : container.getVolumeMounts()) {
                        if (mount.getName().equals(volume.getName())) {
                            mounts.put(mount.getMountPath(), volumeDir);
                        }
                    }
                }
                writeDownwardApi(pod);
                Container container = pod.getSpec().getContainers().getFirst();
                ProcessBuilder builder = new ProcessBuilder(localCommand(container.getCommand()))
                        .redirectErrorStream(true).redirectOutput(log.toFile());
                for (EnvVar variable : container.getEnv()) {
                    builder.environment().put(variable.getName(), variable.getValue() != null ? local(variable.getValue())
                            : annotation(pod, variable.getValueFrom().getFieldRef().getFieldPath()));
                }
                process = builder.start();
                setStatus("Running", false, null);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private void writeDownwardApi(Pod pod) {
            Map<String, String> annotations = pod.getMetadata().getAnnotations();
            if (annotations.equals(annotationsWritten)) {
                return;
            }
            annotationsWritten = Map.copyOf(annotations);
            for (Volume volume : pod.getSpec().getVolumes()) {
                if (volume.getDownwardAPI() == null) {
                    continue;
                }
                for (DownwardAPIVolumeFile item : volume.getDownwardAPI().getItems()) {
                    Path file = dir.resolve("volumes").resolve(volume.getName()).resolve(item.getPath());
                    writeAtomically(file, annotation(pod, item.getFieldRef().getFieldPath()));
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
            setStatus(exitCode == 0 ? "Succeeded" : "Failed", false, exitCode);
            updateJob();
        }

        private void setStatus(String phase, boolean isReady, Integer exitCode) {
            client.pods().inNamespace(namespace).withName(name).editStatus(pod -> {
                pod.getStatus().setPhase(phase);
                pod.getStatus().setConditions(List.of(new PodConditionBuilder().withType("Ready")
                        .withStatus(isReady ? "True" : "False").withReason(isReady ? null : "ContainersNotReady").build()));
                ContainerStatusBuilder status = new ContainerStatusBuilder().withName(ShardJob.CONTAINER).withReady(isReady);
                pod.getStatus().setContainerStatuses(List.of(exitCode == null ? status.withNewState().withNewRunning()
                        .endRunning().endState().build() : status.withNewState().withNewTerminated().withExitCode(exitCode)
                        .withReason(exitCode == 0 ? "Completed" : "Error").endTerminated().endState().build()));
                return pod;
            });
        }

        /** The Job's status as its controller keeps it: counts, indexes, and its end. */
        private void updateJob() {
            List<LocalPod> mine = pods.stream().filter(pod -> pod.job.equals(job)).toList();
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

        void remove() {
            if (process != null) {
                process.destroyForcibly();
            }
            client.pods().inNamespace(namespace).withName(name).delete();
        }

        private List<String> localCommand(List<String> command) {
            List<String> local = new ArrayList<>();
            for (String arg : command) {
                local.add(local.isEmpty() && arg.equals("java") ? java : local(arg));
            }
            return local;
        }

        /** A path in the container as the local directory it is: the image's, or a volume's. */
        private String local(String value) {
            if (value.startsWith(IMAGE_ROOT + "/")) {
                return imageRoot.resolve(value.substring(IMAGE_ROOT.length() + 1)).toString();
            }
            for (Map.Entry<String, Path> mount : mounts.entrySet()) {
                if (value.equals(mount.getKey()) || value.startsWith(mount.getKey() + "/")) {
                    return mount.getValue() + value.substring(mount.getKey().length());
                }
            }
            return value;
        }
    }

    private static String annotation(Pod pod, String fieldPath) {
        Matcher matcher = ANNOTATION.matcher(fieldPath);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("the stand-in knows annotations only, not " + fieldPath);
        }
        return pod.getMetadata().getAnnotations().getOrDefault(matcher.group(1), "");
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
