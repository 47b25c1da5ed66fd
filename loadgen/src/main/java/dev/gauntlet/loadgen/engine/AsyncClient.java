package dev.gauntlet.loadgen.engine;

/**
 * A client library's own asynchronous API (callbacks, futures, reactive streams): one GET of the
 * settings' URL, started on the driver's thread and completed on whatever thread the library
 * completes it on, with no thread per request (mode {@code async}).
 *
 * <p>{@link #get} must return quickly and must not block: the driver's schedule waits for it.
 * Exactly one of the callback's methods is called once per request, from any thread. As with
 * {@link BlockingClient}: a public constructor taking {@link ClientSettings}, named in
 * {@code clients.yaml}.
 */
public interface AsyncClient extends AutoCloseable {

    /** Starts the request; {@code callback} hears how it ended. Never retries. */
    void get(Callback callback);

    /** Releases connections and threads; requests still in flight fail, and their outcome is ignored. */
    @Override
    void close() throws Exception;

    /** How one request ended; safe to call from any thread, once. */
    interface Callback {
        void completed(ClientResponse response);

        /** A failure as the library reported it; classed by {@link ClientFailure#classify}. */
        void failed(Throwable failure);
    }
}
