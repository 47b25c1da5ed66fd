package dev.gauntlet.runner.kubernetes;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;

/**
 * fabric8's mock API server in CRUD mode on a loopback port, with a client of it:
 *
 * <pre>{@code
 * try (MockApiServer api = MockApiServer.start("load")) {
 *     new JobControllerStandIn(api.server(), api.client(), "load", imageRoot, nodesDir);
 * }
 * }</pre>
 */
record MockApiServer(KubernetesMockServer server, KubernetesClient client) implements AutoCloseable {
    static MockApiServer start(String namespace) {
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), responses,
                new KubernetesMixedDispatcher(responses), false);
        server.init(InetAddress.getLoopbackAddress(), 0);
        // HTTP/1.1: the JDK client's HTTP/2 upgrade stalls against the mock's Vert.x 4 server after the first request.
        KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                .withMasterUrl("http://127.0.0.1:" + server.getPort()).withNamespace(namespace).withHttp2Disable(true).build())
                .build();
        return new MockApiServer(server, client);
    }

    int port() {
        return server.getPort();
    }

    @Override
    public void close() {
        client.close();
        server.destroy();
    }
}
