package dev.gauntlet.targets.pekko;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.http.javadsl.ConnectionContext;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.ServerBuilder;
import org.apache.pekko.http.javadsl.model.ContentType;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpMethods;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.MediaTypes;
import org.apache.pekko.http.javadsl.model.StatusCodes;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The Pekko HTTP set-up every style shares: one typed {@code ActorSystem} configured from the
 * target settings, Pekko HTTP's server bound with a request-to-{@code CompletionStage} handler
 * that routes {@code GET /hello}, and the pre-built responses. A style ({@link PekkoTargets}) supplies the system's
 * guardian actor and how a {@code /hello} request waits ({@link Respond}).
 *
 * <p>TLS is the JDK's (JSSE): {@code enableHttps} with the target's {@code SSLContext}. With {@code --http2},
 * {@code pekko.http.server.enable-http2} makes the same {@code bind} serve HTTP/2 beside HTTP/1.1: over TLS by ALPN
 * ({@code h2}, then {@code http/1.1}), in clear to a connection opening with the HTTP/2 preface (and to an h2c
 * upgrade). Pekko runs up to 256 streams of a connection at once ({@code http2.max-concurrent-streams}).
 */
final class PekkoServer<T> implements HelloServer {    /** {@code text/plain} with no charset parameter: Pekko's plain text types otherwise say {@code charset=UTF-8}. */
    private static final ContentType TEXT_PLAIN = MediaTypes.TEXT_PLAIN.toContentTypeWithMissingCharset();
    /** The answer to {@code /hello}: immutable, so one instance serves every request. */
    static final HttpResponse HELLO = HttpResponse.create()
            .withEntity(HttpEntities.create(TEXT_PLAIN, HelloContract.BODY_BYTES));
    private static final CompletionStage<HttpResponse> NOT_FOUND =
            CompletableFuture.completedFuture(HttpResponse.create().withStatus(StatusCodes.NOT_FOUND));
    private static final CompletionStage<HttpResponse> METHOD_NOT_ALLOWED =
            CompletableFuture.completedFuture(HttpResponse.create().withStatus(StatusCodes.METHOD_NOT_ALLOWED));
    private static final CompletionStage<HttpResponse> BAD_REQUEST =
            CompletableFuture.completedFuture(HttpResponse.create().withStatus(StatusCodes.BAD_REQUEST));
    /** Longer than Pekko's 1 s default, which a busy 2-core machine can miss while the system starts. */
    private static final Duration BIND_TIMEOUT = Duration.ofSeconds(10);
    /** How long a stop lets waiting requests finish before Pekko closes their connections. */
    private static final Duration STOP_DEADLINE = Duration.ofMillis(500);
    /** How long a stop waits for the actor system's threads to end; TargetMain halts the JVM 3 s after a stop begins. */
    private static final Duration TERMINATION_TIMEOUT = Duration.ofSeconds(2);

    /** How a style answers a valid {@code /hello} request after {@code waitMs}, calling {@code stats.complete()} as it hands the response over. */
    @FunctionalInterface
    interface Respond {
        CompletionStage<HttpResponse> after(long waitMs);
    }

    private final Function<RequestStats, Behavior<T>> guardian;
    private final BiFunction<ActorSystem<T>, RequestStats, Respond> style;
    private ActorSystem<T> system;
    private ServerBinding binding;

    /**
     * @param guardian the actor system's root actor
     * @param style    given the running system, how requests wait
     */
    PekkoServer(Function<RequestStats, Behavior<T>> guardian, BiFunction<ActorSystem<T>, RequestStats, Respond> style) {
        this.guardian = guardian;
        this.style = style;
    }

    /** Starts the actor system, then binds the server; returns the port bound, the real one for port 0. */
    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        system = ActorSystem.create(guardian.apply(stats), "gauntlet", config(settings));
        try {
            Respond respond = style.apply(system, stats);
            // Typed, as bind is overloaded for a HandlerProvider too.
            org.apache.pekko.japi.function.Function<HttpRequest, CompletionStage<HttpResponse>> handler =
                    request -> handle(request, respond, stats);
            ServerBuilder server = Http.get(system).newServerAt(settings.bind(), settings.port());
            if (settings.tls() != null) {
                server = server.enableHttps(ConnectionContext.httpsServer(settings.tls().sslContext()));
            }
            // The handler form of bind: the only one Pekko serves HTTP/2 through (bindFlow is HTTP/1.1 alone).
            binding = server.bind(handler)
                    .toCompletableFuture()
                    .get(BIND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return binding.localAddress().getPort();
        } catch (Exception e) {
            system.terminate();
            throw e;
        }
    }

    @Override
    public void stop() throws Exception {
        try {
            binding.terminate(STOP_DEADLINE).toCompletableFuture()
                    .get(STOP_DEADLINE.plus(TERMINATION_TIMEOUT).toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            system.terminate();
            system.getWhenTerminated().toCompletableFuture().get(TERMINATION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private static CompletionStage<HttpResponse> handle(HttpRequest request, Respond respond, RequestStats stats) {
        if (!HelloContract.PATH.equals(request.getUri().path())) {
            return NOT_FOUND;
        }
        if (!HttpMethods.GET.equals(request.method())) {
            return METHOD_NOT_ALLOWED;
        }
        long waitMs;
        try {
            waitMs = HelloContract.waitMs(request.getUri().rawQueryString().orElse(null));
        } catch (IllegalArgumentException e) {
            return BAD_REQUEST;
        }
        stats.begin();
        return respond.after(waitMs);
    }

    /**
     * The target settings as Pekko configuration, over Pekko's defaults ({@code reference.conf}).
     * Each value replaces a default that would cap, slow or clutter the benchmark.
     */
    private static Config config(TargetSettings settings) {
        Map<String, Object> values = Map.ofEntries(
                // Pekko splits an event loop's work over three pools, each ioThreads threads here: the
                // default dispatcher runs the HTTP streams (parsing, routing, rendering) and the actors
                // (8 threads at least by default), the internal dispatcher runs the TCP connection actors
                // that read and write the sockets (4 at least), and the selectors wait for readiness (1).
                Map.entry("pekko.actor.default-dispatcher.fork-join-executor.parallelism-min", settings.ioThreads()),
                Map.entry("pekko.actor.default-dispatcher.fork-join-executor.parallelism-max", settings.ioThreads()),
                Map.entry("pekko.actor.internal-dispatcher.fork-join-executor.parallelism-min", settings.ioThreads()),
                Map.entry("pekko.actor.internal-dispatcher.fork-join-executor.parallelism-max", settings.ioThreads()),
                Map.entry("pekko.io.tcp.nr-of-selectors", settings.ioThreads()),
                // Timers fire on a wheel of 10 ms ticks by default, which would add up to 10 ms to every wait.
                Map.entry("pekko.scheduler.tick-duration", "1ms"),
                // 1,024 by default, a cap on held requests: raised above the machine's 20,000 open files.
                Map.entry("pekko.http.server.max-connections", 100_000),
                // 20 s by default, then a 503: the contract allows waits of up to an hour.
                Map.entry("pekko.http.server.request-timeout", "infinite"),
                // 60 s by default, which would cut a connection whose request waits longer.
                Map.entry("pekko.http.server.idle-timeout", "infinite"),
                // The host of a request that names none (HTTP/1.0 without Host), which Pekko would
                // otherwise reject with 400; any name will do, the handler reads only path and query.
                Map.entry("pekko.http.server.default-host-header", "localhost"),
                Map.entry("pekko.http.server.bind-timeout", BIND_TIMEOUT.toMillis() + "ms"),
                Map.entry("pekko.http.server.backlog", settings.backlog()),
                Map.entry("pekko.http.server.socket-options.tcp-no-delay", settings.tcpNoDelay()),
                Map.entry("pekko.http.server.socket-options.so-reuse-address", settings.reuseAddress()),
                // A request line with a method that is not even a token gets 400, not Pekko's 501.
                Map.entry("pekko.http.server.parsing.error-handler", MalformedMethodErrorHandler.class.getName()),
                // Empty: no Server header.
                Map.entry("pekko.http.server.server-header", ""),
                Map.entry("pekko.http.server.enable-http2", settings.http2()),
                // Warnings only; pekko-actor-typed routes Pekko's log to SLF4J, here to java.util.logging (stderr).
                Map.entry("pekko.loglevel", "WARNING"),
                Map.entry("pekko.log-dead-letters", "off"),
                // TargetMain's shutdown hook stops the server; Pekko's own hook would race it.
                Map.entry("pekko.jvm-shutdown-hooks", "off"),
                Map.entry("pekko.coordinated-shutdown.run-by-jvm-shutdown-hook", "off"));
        return ConfigFactory.parseMap(values).withFallback(ConfigFactory.load());
    }
}
