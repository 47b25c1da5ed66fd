package dev.gauntlet.loadgen.engine;

/**
 * A client library's blocking call: one GET of the settings' URL, returning when the whole
 * response has arrived. The driver calls it on a platform thread per request (mode
 * {@code platform}) or a virtual thread per request (mode {@code virtual}), many at once, so it
 * must be safe to call concurrently.
 *
 * <p>An implementation has a public constructor taking {@link ClientSettings}, is named in
 * {@code clients.yaml}, and configures its library once there. A failure is thrown as it comes:
 * the driver classes it ({@link ClientFailure#classify}); an engine that knows better throws a
 * {@link ClientFailure} naming the class itself.
 */
public interface BlockingClient extends AutoCloseable {

    /** Sends the request and waits for the whole response; never retries. */
    ClientResponse get() throws Exception;

    /** Releases connections and threads; calls still blocked fail, and their outcome is ignored. */
    @Override
    void close() throws Exception;
}
