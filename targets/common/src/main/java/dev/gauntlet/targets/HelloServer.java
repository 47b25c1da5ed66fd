package dev.gauntlet.targets;

/**
 * One server technology serving the target contract in one handler style. The target catalogue's
 * {@code serverClass} names how {@link TargetMain} gets one: a public static factory method of a technology's
 * styles ({@code dev.gauntlet.targets.jetty.JettyTargets#handlerSync}), or a class with a no-argument constructor
 * where a technology has one style.
 *
 * <pre>{@code
 * final class JettyServer implements HelloServer {
 *     public int start(TargetSettings settings, RequestStats stats) { ... return connector.getLocalPort(); }
 *     public void stop() { server.stop(); }
 * }
 * public static HelloServer handlerSync() { return new JettyServer(Threads.BLOCKING, HelloHandler::sleeping); }
 * }</pre>
 *
 * <p>The contract: {@code GET /hello?wait=MS} answers {@link HelloContract#BODY} after MS
 * milliseconds; any other path 404; a malformed request 400 or a closed connection. Each
 * {@code /hello} request calls {@link RequestStats#begin()} when it arrives and
 * {@link RequestStats#complete()} once its response is handed to the server.
 */
public interface HelloServer {

    /**
     * Whether a second instance can start beside the first in one JVM ({@code --also}); false for a framework that
     * boots once per process from global state (system properties, one application).
     */
    default boolean startsTwiceInOneJvm() {
        return true;
    }

    /**
     * Whether {@link #start} serves HTTP/3 on UDP beside the TCP port when {@code settings.http3()}; a server that does
     * not is refused {@code --http3} before it starts.
     */
    default boolean servesHttp3() {
        return false;
    }

    /**
     * Starts listening on {@code settings.bind():settings.port()}, with TLS when {@code settings.tls()} is given and
     * HTTP/2 beside HTTP/1.1 when {@code settings.http2()}, HTTP/3 on UDP at the same port number when
     * {@code settings.http3()}; returns the bound port. What a target serves is the
     * catalogue's {@code protocols}; a server without TLS or HTTP/2 throws {@link ProtocolNotServed} when asked for it.
     */
    int start(TargetSettings settings, RequestStats stats) throws Exception;

    /** Stops accepting, closes connections and ends every thread the server started. */
    void stop() throws Exception;
}
