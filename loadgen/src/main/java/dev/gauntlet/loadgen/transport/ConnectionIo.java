package dev.gauntlet.loadgen.transport;

import dev.gauntlet.api.ErrorClass;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.nio.channels.SelectionKey;
import javax.net.ssl.SSLException;

/**
 * The lean engine's wire protocol: how a {@link Connection} — the engine's unit of one request at a time — is opened,
 * carries its request and is let go, and what becomes of it, told to the event loop's {@link Events}. For HTTP/1.1
 * ({@link Http1Io}) each is a socket of its own; for HTTP/2 ({@link Http2Io}) a stream slot of a shared socket. It keeps
 * no request's figures. Single-threaded: the event loop owns it.
 */
sealed interface ConnectionIo permits Http1Io, Http2Io {

    /** What became of a connection, for the event loop to book. */
    interface Events {
        /** It is ready to carry a request: connected, its TLS handshake (and HTTP/2's settings) done. */
        void connected(Connection connection);

        /**
         * A whole response arrived at {@code endNs}, with {@code status}, its body the expected one or not; with
         * {@code mustClose}, the connection cannot carry another.
         */
        void answered(Connection connection, long endNs, int status, boolean bodyMatches, boolean mustClose);

        /** It failed as {@code errorClass}, with the request it carried, if any. */
        void failed(Connection connection, ErrorClass errorClass);

        /** It must close: its peer closed it idle, or sent bytes nobody asked for, or will take no more requests. */
        void close(Connection connection);
    }

    /** A new connection, being opened; {@link Connection#state} says whether it is ready at once ({@code IDLE}). */
    Connection open() throws IOException;

    /** Sends the request the connection was given. */
    void write(Connection connection);

    /** Handles what {@code key} is ready for: the selector's callback. */
    void onReady(SelectionKey key);

    /** Lets the connection go: its socket closed, or its stream slot given back. */
    void release(Connection connection);

    /** Sockets open at once at most, given the most {@link Connection}s open at once. */
    int socketsPeak(int connectionsPeak);

    static ErrorClass connectError(IOException e) {
        return e instanceof ConnectException || e instanceof NoRouteToHostException
                ? ErrorClass.REFUSED : ErrorClass.RESET;
    }

    /** The class of a failure while a connection is made ready: TLS's own, or the socket's. */
    static ErrorClass handshakeError(IOException e) {
        return e instanceof SSLException ? ErrorClass.TLS : ErrorClass.RESET;
    }

    static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // Closing at the end of a request's life: nothing left to report.
        }
    }
}
