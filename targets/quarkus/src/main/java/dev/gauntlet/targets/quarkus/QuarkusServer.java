package dev.gauntlet.targets.quarkus;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import io.quarkus.runtime.Application;
import io.quarkus.vertx.http.HttpServer;

import java.io.IOException;
import java.security.GeneralSecurityException;

/**
 * Boots the Quarkus application that {@code quarkus-maven-plugin} augmented at build time, inside
 * {@code TargetMain}'s JVM. The build writes it as an uber-jar, {@code target/gauntlet-target-quarkus-runner.jar}:
 * the application, its libraries, the library classes Quarkus rewrote and the generated start-up
 * code ({@code io.quarkus.runner.ApplicationImpl}), all on the plain class path the runner gives
 * every target. Starting that {@link Application} runs the recorded start-up steps as Quarkus'
 * generated main would, but without its lifecycle manager, so {@code TargetMain} keeps the
 * process's shutdown hook and stops the application itself.
 *
 * <p>The target's settings reach Quarkus as run-time configuration in system properties, set before
 * the application's class is loaded; the endpoints, {@link StyleRoute} and {@link SocketOptions}
 * read the target's own objects from this class's static state: one target per JVM. {@link QuarkusTargets} makes one
 * per style.
 *
 * <p>With {@code --tls}, Quarkus' HTTPS server takes the target's port ({@code quarkus.http.ssl-port}) and its
 * plain HTTP server is not started ({@code insecure-requests=disabled}); the key is a {@link PasswordProtectedKeyStore},
 * the default TLS configuration of Quarkus' TLS registry. TLS is Vert.x's JDK engine (JSSE). With
 * {@code --http2}, {@code quarkus.http.http2}: ALPN offers {@code h2} then {@code http/1.1} over TLS, and in clear
 * Vert.x serves a connection opening with the HTTP/2 preface (or an h2c upgrade) as HTTP/2. The streams of a
 * connection are not limited: Quarkus announces no {@code SETTINGS_MAX_CONCURRENT_STREAMS} unless told.
 */
final class QuarkusServer implements HelloServer {
    /** The styles, one endpoint of {@link HelloResource} each; {@code /hello} is rerouted to the selected one. */
    enum Style {
        SYNC(HelloResource.SYNC),
        VIRTUAL(HelloResource.VIRTUAL),
        EVENT_LOOP(HelloResource.EVENT_LOOP);

        /** The style's endpoint: {@code /hello/<sub-path>}. */
        final String path;

        Style(String subPath) {
            this.path = HelloContract.PATH + "/" + subPath;
        }
    }

    private record Running(TargetSettings settings, RequestStats stats, Style style) {
    }

    private static volatile Running running;

    private final Style style;
    private Application application;

    QuarkusServer(Style style) {
        this.style = style;
    }

    static TargetSettings settings() {
        return running.settings();
    }

    static RequestStats stats() {
        return running.stats();
    }

    static Style style() {
        return running.style();
    }

    /** Quarkus boots one application per process, configured by system properties. */
    @Override
    public boolean startsTwiceInOneJvm() {
        return false;
    }

    @Override
    public int start(TargetSettings settings, RequestStats stats)
            throws ReflectiveOperationException, GeneralSecurityException, IOException {
        running = new Running(settings, stats, style);
        System.setProperty("quarkus.http.host", settings.bind());
        System.setProperty("quarkus.http.port", String.valueOf(settings.port()));
        System.setProperty("quarkus.http.http2", String.valueOf(settings.http2()));
        if (settings.tls() != null) {
            System.setProperty("quarkus.http.ssl-port", String.valueOf(settings.port()));
            System.setProperty("quarkus.http.insecure-requests", "disabled");
            PasswordProtectedKeyStore keyStore = PasswordProtectedKeyStore.of(settings.tls());
            System.setProperty("quarkus.tls.key-store.p12.path", keyStore.file().toString());
            System.setProperty("quarkus.tls.key-store.p12.password", keyStore.password());
        }
        System.setProperty("quarkus.http.accept-backlog", String.valueOf(settings.backlog()));
        // One HTTP server verticle per event loop, as many event loops as I/O threads.
        System.setProperty("quarkus.vertx.event-loops-pool-size", String.valueOf(settings.ioThreads()));
        System.setProperty("quarkus.http.io-threads", String.valueOf(settings.ioThreads()));
        // The worker pool of @Blocking endpoints: up to `workers` threads, one held per waiting request.
        System.setProperty("quarkus.thread-pool.max-threads", String.valueOf(settings.workers()));
        application = (Application) Class.forName(Application.APP_CLASS_NAME).getDeclaredConstructor().newInstance();
        application.start(new String[0]);
        return application.getValueRegistry().get(settings.tls() != null ? HttpServer.HTTPS_PORT : HttpServer.HTTP_PORT);
    }

    @Override
    public void stop() {
        if (application != null) {
            application.stop();
        }
    }
}
