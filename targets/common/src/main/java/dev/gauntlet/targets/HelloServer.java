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

    /** Starts listening on {@code settings.bind():settings.port()}; returns the bound port. */
    int start(TargetSettings settings, RequestStats stats) throws Exception;

    /** Stops accepting, closes connections and ends every thread the server started. */
    void stop() throws Exception;
}
