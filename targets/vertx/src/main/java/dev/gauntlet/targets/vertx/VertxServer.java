package dev.gauntlet.targets.vertx;

import dev.gauntlet.targets.HelloServer;
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
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.PfxOptions;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A Vert.x core HTTP server with the target's settings, deployed the Vert.x way: one verticle
 * instance per event loop ({@code ioThreads}), each with its own {@link HttpServer} on the same
 * port, among which Vert.x deals out the connections. The styles ({@link VertxTargets}) differ in the verticles'
 * threading model and in the {@link HelloHandler.Wait}.
 *
 * <p>The epoll transport is used when it is available; the worker pool ({@code executeBlocking})
 * has {@code workers} threads. TLS is the JDK's (JSSE); with HTTP/2, ALPN offers h2 then http/1.1, and
 * in clear a connection that opens with the HTTP/2 preface is served HTTP/2.
 */
final class VertxServer implements HelloServer {
    private final ThreadingModel threadingModel;
    private final HelloHandler.Wait wait;
    private Vertx vertx;

    VertxServer(ThreadingModel threadingModel, HelloHandler.Wait wait) {
        this.threadingModel = threadingModel;
        this.wait = wait;
    }

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        vertx = Vertx.vertx(new VertxOptions()
                .setPreferNativeTransport(true)
                .setEventLoopPoolSize(settings.ioThreads())
                .setWorkerPoolSize(settings.workers()));
        // Port 0 would give every instance its own random port; a negative port is Vert.x's
        // "one random port, shared by every server asking for this same negative port".
        HttpServerOptions options = serverOptions(settings, settings.port() == 0 ? -1 : settings.port());
        List<HelloVerticle> verticles = new CopyOnWriteArrayList<>();
        vertx.deployVerticle(() -> {
            HelloVerticle verticle = new HelloVerticle(options, stats, wait);
            verticles.add(verticle);
            return verticle;
        }, new DeploymentOptions().setThreadingModel(threadingModel).setInstances(settings.ioThreads()))
                .await(10, TimeUnit.SECONDS);
        return verticles.getFirst().server.actualPort();
    }

    private static HttpServerOptions serverOptions(TargetSettings settings, int port)
            throws GeneralSecurityException, IOException {
        HttpServerOptions options = new HttpServerOptions()
                .setHost(settings.bind())
                .setPort(port)
                .setAcceptBacklog(settings.backlog())
                .setTcpNoDelay(settings.tcpNoDelay())
                .setReuseAddress(settings.reuseAddress())
                // Without --http2, HTTP/1.1 only, as every other target: no HTTP/2 detection on new connections.
                .setHttp2ClearTextEnabled(settings.tls() == null && settings.http2());
        if (settings.tls() != null) {
            options.setSsl(true)
                    // Vert.x's default, named as the target catalogue names it.
                    .setSslEngineOptions(new JdkSSLEngineOptions())
                    .setKeyCertOptions(new PfxOptions()
                            .setPath(settings.tls().keyStoreFile().toString())
                            .setPassword(new String(settings.tls().password())))
                    .setUseAlpn(settings.http2());
        }
        return options;
    }

    @Override
    public void stop() throws Exception {
        if (vertx != null) {
            vertx.close().await(3, TimeUnit.SECONDS);
        }
    }

    private static final class HelloVerticle extends VerticleBase {
        private final HttpServerOptions options;
        private final RequestStats stats;
        private final HelloHandler.Wait wait;
        private HttpServer server;

        HelloVerticle(HttpServerOptions options, RequestStats stats, HelloHandler.Wait wait) {
            this.options = options;
            this.stats = stats;
            this.wait = wait;
        }

        @Override
        public Future<?> start() {
            server = vertx.createHttpServer(options);
            return server.requestHandler(new HelloHandler(stats, wait)).listen();
        }
    }
}
