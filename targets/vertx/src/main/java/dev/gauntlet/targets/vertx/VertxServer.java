package dev.gauntlet.targets.vertx;

import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A Vert.x core HTTP server with the target's settings, deployed the Vert.x way: one verticle
 * instance per event loop ({@code ioThreads}), each with its own {@link HttpServer} on the same
 * port, among which Vert.x deals out the connections. The styles differ in the verticles'
 * threading model and in the {@link HelloHandler.Wait}.
 *
 * <p>The epoll transport is used when it is available; the worker pool ({@code executeBlocking})
 * has {@code workers} threads.
 */
final class VertxServer {
    private Vertx vertx;

    int start(TargetSettings settings, RequestStats stats, ThreadingModel threadingModel, HelloHandler.Wait wait)
            throws Exception {
        vertx = Vertx.vertx(new VertxOptions()
                .setPreferNativeTransport(true)
                .setEventLoopPoolSize(settings.ioThreads())
                .setWorkerPoolSize(settings.workers()));
        // Port 0 would give every instance its own random port; a negative port is Vert.x's
        // "one random port, shared by every server asking for this same negative port".
        int port = settings.port() == 0 ? -1 : settings.port();
        List<HelloVerticle> verticles = new CopyOnWriteArrayList<>();
        vertx.deployVerticle(() -> {
            HelloVerticle verticle = new HelloVerticle(settings, port, stats, wait);
            verticles.add(verticle);
            return verticle;
        }, new DeploymentOptions().setThreadingModel(threadingModel).setInstances(settings.ioThreads()))
                .await(10, TimeUnit.SECONDS);
        return verticles.getFirst().server.actualPort();
    }

    void stop() throws Exception {
        if (vertx != null) {
            vertx.close().await(3, TimeUnit.SECONDS);
        }
    }

    private static final class HelloVerticle extends VerticleBase {
        private final TargetSettings settings;
        private final int port;
        private final RequestStats stats;
        private final HelloHandler.Wait wait;
        private HttpServer server;

        HelloVerticle(TargetSettings settings, int port, RequestStats stats, HelloHandler.Wait wait) {
            this.settings = settings;
            this.port = port;
            this.stats = stats;
            this.wait = wait;
        }

        @Override
        public Future<?> start() {
            server = vertx.createHttpServer(new HttpServerOptions()
                    .setHost(settings.bind())
                    .setPort(port)
                    .setAcceptBacklog(settings.backlog())
                    .setTcpNoDelay(settings.tcpNoDelay())
                    .setReuseAddress(settings.reuseAddress())
                    // HTTP/1.1 only, as every other target: no cleartext HTTP/2 detection on new connections.
                    .setHttp2ClearTextEnabled(false));
            return server.requestHandler(new HelloHandler(stats, wait)).listen();
        }
    }
}
