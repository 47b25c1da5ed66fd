package dev.gauntlet.loadgen.http3;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.loadgen.engine.ClientFailure;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.codec.quic.QuicClosedChannelException;
import io.netty.handler.codec.quic.QuicConnectionCloseEvent;
import io.netty.handler.codec.quic.QuicStreamResetException;
import io.netty.handler.codec.quic.QuicTimeoutClosedChannelException;

/**
 * The error class of a QUIC or HTTP/3 failure, from Netty's exception types, which {@link ClientFailure#classify}
 * cannot read: a handshake with no answer within the connect timeout (nothing serving QUIC there, or UDP blocked) is
 * {@code CONNECT_TIMEOUT}; one the TLS layer ended (a certificate refused, no application protocol in common: ALPN)
 * is {@code TLS}; a connection that went silent until its idle timeout (loss recovery gave up) or that the peer
 * closed is {@code RESET}; a stream the server reset is {@code STREAM_RESET}.
 */
public final class QuicFailures {
    /** TLS's alert {@code no_application_protocol}: ALPN found nothing in common. */
    private static final int NO_APPLICATION_PROTOCOL = 120;

    private QuicFailures() {
    }

    /** Whether a handshake failed because the server offered no HTTP/3 in ALPN. */
    public static boolean noHttp3(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof QuicClosedChannelException closed && closed.event() != null && closed.event().isTlsError()
                    && QuicConnectionCloseEvent.extractTlsError(closed.event().error()) == NO_APPLICATION_PROTOCOL) {
                return true;
            }
        }
        return false;
    }

    static Throwable classified(Throwable failure) {
        return switch (failure) {
            case ClientFailure known -> known;
            case ConnectTimeoutException timeout ->
                    new ClientFailure(ErrorClass.CONNECT_TIMEOUT, "no QUIC handshake answer: " + timeout.getMessage(), timeout);
            case QuicTimeoutClosedChannelException idle ->
                    new ClientFailure(ErrorClass.RESET, "the QUIC connection went silent until its idle timeout", idle);
            case QuicClosedChannelException closed when closed.event() != null && closed.event().isTlsError() ->
                    new ClientFailure(ErrorClass.TLS, "the QUIC handshake failed: " + closed.event(), closed);
            case QuicClosedChannelException closed ->
                    new ClientFailure(ErrorClass.RESET, "the QUIC connection closed: " + closed.event(), closed);
            case QuicStreamResetException reset ->
                    new ClientFailure(ErrorClass.STREAM_RESET, "the server reset the stream: " + reset.getMessage(), reset);
            default -> failure;
        };
    }
}
