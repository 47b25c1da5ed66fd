package dev.gauntlet.targets.micronaut;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.PlatformWorkers;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import io.micronaut.context.ApplicationContext;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.server.netty.NettyEmbeddedServer;
import io.micronaut.inject.qualifiers.Qualifiers;
import io.micronaut.runtime.server.EmbeddedServer;
import io.netty.channel.EventLoopGroup;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The Micronaut application every style shares: an application context holding the target's
 * {@link RequestStats}, configured from the target settings, and its Netty HTTP server. The style
 * ({@link MicronautTargets}) chooses which {@code GET /hello} controller exists: each of {@link HelloControllers}
 * {@code @Requires} its {@link #STYLE_PROPERTY}, so the router knows only one and a request pays nothing for the choice.
 *
 * <p>Everything else is configuration, set here rather than read from the environment:
 * <ul>
 *   <li>{@code ioThreads} event loops on the epoll transport when it is available (else NIO),
 *       and the listening channel on one of them (Micronaut's own acceptor group is a separate
 *       thread by default), so {@code ioThreads} counts every I/O thread, as in {@code netty-event-loop};</li>
 *   <li>{@code backlog}, {@code reuseAddress}, {@code tcpNoDelay} as Netty channel options;</li>
 *   <li>no {@code Date} header (on by default) and no idle timeout: Micronaut closes a connection
 *       that neither reads nor writes for 5 minutes, held requests included, and the contract
 *       allows waits of up to an hour;</li>
 *   <li>no environment deduction (it probes for clouds) and no environment-variable property source,
 *       so only these settings configure the target;</li>
 *   <li>with {@code --tls}, one listener on the target's port serving TLS alone (Micronaut's
 *       {@code micronaut.server.ssl.port} is deprecated for listeners), its key the target's PKCS#12 key store
 *       file. TLS is the JDK's (JSSE): netty-tcnative is not on this classpath;</li>
 *   <li>with {@code --http2}, {@code http-version 2.0}: ALPN offers {@code h2} then {@code http/1.1} over TLS, and in
 *       clear Netty's cleartext upgrade handler serves a connection opening with the HTTP/2 preface (and an h2c
 *       upgrade) as HTTP/2, any other as HTTP/1.1. A connection runs up to 100 streams at once, Netty's
 *       default {@code SETTINGS_MAX_CONCURRENT_STREAMS}, which Micronaut keeps unless told;</li>
 *   <li>with {@code --http3}, a QUIC listener on the UDP port of the TCP port's number ({@link Http3Listener}), a
 *       connection's streams at once far beyond what a load asks for (Micronaut's default is 100), as in
 *       {@code netty-event-loop}.</li>
 * </ul>
 */
final class MicronautServer implements HelloServer {    /** The property each controller requires; its value is the style's name. */
    static final String STYLE_PROPERTY = "gauntlet.style";
    /** The name of the sync style's platform pool, for {@code @ExecuteOn}. */
    static final String WORKERS = "gauntlet-workers";
    /** Waited for the event loops at stop: bounded, so a stop ends well within TargetMain's grace. */
    private static final long SHUTDOWN_TIMEOUT_MS = 2_000;
    private static final String EVENT_LOOP = "micronaut.netty.event-loops.default.";
    private static final String TLS_LISTENER = "micronaut.server.netty.listeners.gauntlet-tls.";
    private static final String HTTP3 = "micronaut.server.netty.http3.";
    /** HTTP/3 request streams one connection may hold open at once: far beyond a load's streams per connection. */
    private static final int HTTP3_STREAMS_PER_CONNECTION = 10_000;
    private static final int HTTP3_CONNECTION_WINDOW = 16 << 20;
    private static final int HTTP3_STREAM_WINDOW = 1 << 20;

    private final String style;
    private final boolean withWorkers;
    private ApplicationContext context;
    private ExecutorService workers;
    private NettyEmbeddedServer http3;

    private MicronautServer(String style, boolean withWorkers) {
        this.style = style;
        this.withWorkers = withWorkers;
    }

    /** A server whose controller runs where Micronaut puts it: on the event loop or one of its executors. */
    static MicronautServer of(String style) {
        return new MicronautServer(style, false);
    }

    /** A server that also has the {@link #WORKERS} pool: up to {@code workers} platform threads. */
    static MicronautServer withWorkers(String style) {
        return new MicronautServer(style, true);
    }

    @Override
    public boolean servesHttp3() {
        return true;
    }

    /** Starts the context and its server, then with {@code --http3} the QUIC listener; returns the bound port. */
    @Override
    public int start(TargetSettings settings, RequestStats stats) throws GeneralSecurityException, IOException {
        context = ApplicationContext.builder()
                .properties(properties(settings))
                .singletons(stats)
                .deduceEnvironment(false)
                .deduceCloudEnvironment(false)
                .environmentPropertySource(false)
                .banner(false)
                .build();
        if (withWorkers) {
            workers = PlatformWorkers.upTo(settings.workers(), "micronaut-worker-");
            context.registerSingleton(ExecutorService.class, workers, Qualifiers.byName(WORKERS));
        }
        context.start();
        int port = context.getBean(EmbeddedServer.class).start().getPort();
        if (settings.http3()) {
            http3 = Http3Listener.start(context, settings.bind(), port);
        }
        return port;
    }

    private Map<String, Object> properties(TargetSettings settings) throws GeneralSecurityException, IOException {
        Map<String, Object> properties = new HashMap<>(Map.ofEntries(
                Map.entry(STYLE_PROPERTY, style),
                Map.entry("micronaut.server.host", settings.bind()),
                Map.entry("micronaut.server.port", settings.port()),
                Map.entry("micronaut.server.date-header", false),
                Map.entry("micronaut.server.idle-timeout", "-1s"),
                Map.entry("micronaut.server.netty.options.SO_BACKLOG", settings.backlog()),
                Map.entry("micronaut.server.netty.options.SO_REUSEADDR", settings.reuseAddress()),
                Map.entry("micronaut.server.netty.child-options.TCP_NODELAY", settings.tcpNoDelay()),
                Map.entry("micronaut.server.netty.parent.event-loop-group", "default"),
                Map.entry(EVENT_LOOP + "num-threads", settings.ioThreads()),
                Map.entry(EVENT_LOOP + "transport", List.of("epoll", "nio")),
                Map.entry(EVENT_LOOP + "shutdown-quiet-period", "0s"),
                Map.entry(EVENT_LOOP + "shutdown-timeout", SHUTDOWN_TIMEOUT_MS + "ms")));
        if (settings.tls() != null) {
            properties.put("micronaut.server.ssl.enabled", true);
            properties.put("micronaut.server.ssl.key-store.path", "file:" + settings.tls().keyStoreFile());
            properties.put("micronaut.server.ssl.key-store.password", new String(settings.tls().password()));
            properties.put("micronaut.server.ssl.key-store.type", "PKCS12");
            properties.put(TLS_LISTENER + "host", settings.bind());
            properties.put(TLS_LISTENER + "port", settings.port());
            properties.put(TLS_LISTENER + "ssl", true);
        }
        if (settings.http2()) {
            properties.put("micronaut.server.http-version", "2.0");
        }
        if (settings.http3()) {
            properties.put(HTTP3 + "initial-max-streams-bidirectional", HTTP3_STREAMS_PER_CONNECTION);
            properties.put(HTTP3 + "initial-max-data", HTTP3_CONNECTION_WINDOW);
            properties.put(HTTP3 + "initial-max-stream-data-bidirectional-local", HTTP3_STREAM_WINDOW);
            properties.put(HTTP3 + "initial-max-stream-data-bidirectional-remote", HTTP3_STREAM_WINDOW);
        }
        return properties;
    }

    /** Stops the server and the context, then waits for the event loops and the workers to end. */
    @Override
    public void stop() throws InterruptedException {
        if (context == null) {
            return;
        }
        EventLoopGroup eventLoops = context.getBean(EventLoopGroup.class);
        // Before the context, which shuts down the event loops the QUIC listener runs on.
        if (http3 != null) {
            http3.stop();
        }
        context.stop();
        if (workers != null) {
            workers.shutdownNow();
            workers.awaitTermination(SHUTDOWN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        }
        eventLoops.terminationFuture().await(SHUTDOWN_TIMEOUT_MS);
    }

    /** The blocking styles' handling: 400 for an impossible wait, else sleep it out and answer. */
    static HttpResponse<byte[]> sleepThenHello(HttpRequest<?> request, RequestStats stats) {
        long waitMs;
        try {
            waitMs = HelloContract.waitMs(request.getUri().getRawQuery());
        } catch (IllegalArgumentException e) {
            return HttpResponse.badRequest();
        }
        stats.begin();
        HelloContract.sleep(waitMs);
        HttpResponse<byte[]> response = hello();
        stats.complete();
        return response;
    }

    /**
     * The contract's {@code 200}: a new response each time, as Micronaut's responses are mutable.
     * Micronaut adds the {@code content-length}.
     */
    static HttpResponse<byte[]> hello() {
        return HttpResponse.ok(HelloContract.BODY_BYTES).contentType(MediaType.TEXT_PLAIN_TYPE);
    }
}
