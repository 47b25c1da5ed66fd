package dev.gauntlet.targets;

/**
 * One server technology serving the target contract in one handler style. A technology module
 * provides one small final class per style, named in the target catalogue; {@link TargetMain}
 * creates it with its no-argument constructor.
 *
 * <pre>{@code
 * public final class JettyHandlerSync implements HelloServer {
 *     public int start(TargetSettings settings, RequestStats stats) { ... return connector.getLocalPort(); }
 *     public void stop() { server.stop(); }
 * }
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
     * Starts listening on {@code settings.bind():settings.port()}, with TLS when {@code settings.tls()} is given and
     * HTTP/2 beside HTTP/1.1 when {@code settings.http2()}; returns the bound port. What a target serves is the
     * catalogue's {@code protocols}; a server without TLS or HTTP/2 throws {@link ProtocolNotServed} when asked for it.
     */
    int start(TargetSettings settings, RequestStats stats) throws Exception;

    /** Stops accepting, closes connections and ends every thread the server started. */
    void stop() throws Exception;
}
