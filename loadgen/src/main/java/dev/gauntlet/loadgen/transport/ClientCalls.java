package dev.gauntlet.loadgen.transport;

import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.http3.Http3Calls;
import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.BlockingClient;

/**
 * How a {@link LibraryEngine} hands a request to its client library, by mode: the library's
 * blocking call on a new thread per request (platform or virtual), or its async API. Starting a
 * request never blocks the driver.
 */
sealed interface ClientCalls extends AutoCloseable {

    /** Sends {@code call}; its outcome reaches the driver through the call. */
    void start(LibraryCall call);

    @Override
    void close() throws Exception;

    /** An HTTP/3 load's QUIC figures, once closed; null for the other engines. */
    default RunSummary.Quic quic() {
        return null;
    }

    /**
     * A new thread per request, uncapped, as the 2015 study's thread-blocking and fiber-blocking
     * clients: a platform thread that cannot be created fails its request as {@code NO_THREAD},
     * and the run goes on.
     */
    record ThreadPerRequest(BlockingClient client, Thread.Builder threads) implements ClientCalls {
        @Override
        public void start(LibraryCall call) {
            Runnable request = () -> {
                call.sending();
                try {
                    call.completed(client.get());
                } catch (Throwable t) {
                    call.failed(t);
                }
            };
            try {
                threads.start(request);
            } catch (OutOfMemoryError noThread) {
                // "unable to create native thread": the blocking mode's cost, counted rather than fatal.
                call.failedAs(ErrorClass.NO_THREAD);
            }
        }

        @Override
        public void close() throws Exception {
            client.close();
        }
    }

    /** The built-in HTTP/3 engine: its calls as a library's async ones, and what QUIC did under them. */
    record Http3(Http3Calls engine) implements ClientCalls {
        @Override
        public void start(LibraryCall call) {
            Async.send(engine, call);
        }

        @Override
        public void close() throws Exception {
            engine.close();
        }

        @Override
        public RunSummary.Quic quic() {
            return engine.traffic();
        }
    }

    /** The library's own callbacks or futures: no thread per request. */
    record Async(AsyncClient client) implements ClientCalls {
        @Override
        public void start(LibraryCall call) {
            send(client, call);
        }

        /** Hands {@code call} to {@code client}; a throw from it is the call's failure. */
        static void send(AsyncClient client, LibraryCall call) {
            call.sending();
            try {
                client.get(call);
            } catch (RuntimeException e) {
                call.failed(e);
            }
        }

        @Override
        public void close() throws Exception {
            client.close();
        }
    }
}
