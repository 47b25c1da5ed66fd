package dev.gauntlet.runner.kubernetes;

import dev.gauntlet.runner.base.GauntletHome;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A cluster for tests with none: fabric8's mock API server in CRUD mode, {@link JobControllerStandIn} running each
 * pod's real command as a local process, an image directory built as docs/distributed.md's recipe builds the image,
 * a kubeconfig pointing at it, and {@code ./gauntlet} run against it as a user would.
 */
final class MockCluster implements AutoCloseable {
    static final String NAMESPACE = "load";

    final KubernetesMockServer api;
    final KubernetesClient client;
    final JobControllerStandIn standIn;
    /** Set into {@code ./gauntlet}'s environment, over the kubeconfig's: an admin token, say. */
    final Map<String, String> environment = new HashMap<>();
    private final Path dir;

    MockCluster(Path dir) throws IOException {
        this.dir = dir;
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        api = new KubernetesMockServer(new Context(), new MockWebServer(), responses, new KubernetesMixedDispatcher(responses), false);
        api.init(InetAddress.getLoopbackAddress(), 0);
        // HTTP/1.1: the JDK client's HTTP/2 upgrade stalls against the mock's Vert.x 4 server after the first request.
        client = new KubernetesClientBuilder().withConfig(new ConfigBuilder().withMasterUrl("http://127.0.0.1:" + api.getPort())
                .withNamespace(NAMESPACE).withHttp2Disable(true).build()).build();
        standIn = new JobControllerStandIn(api, client, NAMESPACE, image(), Files.createDirectories(dir.resolve("nodes")));
    }

    /** The kubeconfig of this cluster; {@code port} another to point at an API server that is not there. */
    Path kubeconfig(int port) throws IOException {
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

    Path kubeconfig() throws IOException {
        return kubeconfig(api.getPort());
    }

    /**
     * The image's /opt/gauntlet: the generator's jar and libraries in {@code lib}, the checkout's built target modules
     * at their own paths, as docs/distributed.md's recipe copies them (the JFR settings come in ConfigMaps).
     */
    private Path image() throws IOException {
        GauntletHome home = GauntletHome.fromSystemProperty();
        Path root = Files.createDirectories(dir.resolve("image"));
        Path lib = Files.createDirectories(root.resolve("lib"));
        Path module = home.root().resolve("loadgen/target");
        Files.createSymbolicLink(lib.resolve("gauntlet-loadgen.jar"), module.resolve("gauntlet-loadgen.jar"));
        try (var jars = Files.list(module.resolve("lib"))) {
            for (Path jar : jars.toList()) {
                Files.createSymbolicLink(lib.resolve(jar.getFileName()), jar);
            }
        }
        Files.createSymbolicLink(root.resolve("targets"), home.root().resolve("targets"));
        return root;
    }

    @Override
    public void close() {
        standIn.close();
        client.close();
        api.destroy();
    }

    record Result(int exitCode, String stdout, String stderr) {
    }

    /** {@code ./gauntlet ARGS} against this cluster, its stderr echoed as it comes; at most {@code limitSec}. */
    Result gauntlet(long limitSec, String... args) {
        return gauntlet(limitSec, process -> { }, args);
    }

    /** As {@link #gauntlet(long, String...)}, with the started process handed to {@code started} (to signal it, say). */
    Result gauntlet(long limitSec, Consumer<Process> started, String... args) {
        try {
            List<String> command = new ArrayList<>(List.of(GauntletHome.fromSystemProperty().root().resolve("gauntlet").toString()));
            command.addAll(List.of(args));
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment().put("GAUNTLET_NO_BUILD", "1");
            builder.environment().put("KUBECONFIG", kubeconfig().toString());
            builder.environment().putAll(environment);
            Process process = builder.start();
            started.accept(process);
            CompletableFuture<String> stdout = onItsOwnThread(() -> read(process.getInputStream()));
            StringBuilder stderr = new StringBuilder();
            try (var err = process.errorReader(StandardCharsets.UTF_8)) {
                for (String line; (line = err.readLine()) != null; ) {
                    System.err.println(line);
                    stderr.append(line).append(System.lineSeparator());
                }
            }
            if (!process.waitFor(limitSec, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("./gauntlet " + String.join(" ", args) + " did not end");
            }
            return new Result(process.exitValue(), stdout.join(), stderr.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /**
     * Not on the common pool: with 2 CPUs it has one thread, which a blocking read would hold for the whole
     * run, and the Kubernetes client completes its requests there.
     */
    static <T> CompletableFuture<T> onItsOwnThread(Supplier<T> task) {
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

    private static String read(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
