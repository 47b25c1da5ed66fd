package dev.gauntlet.loadgen.http3;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.loadgen.engine.ClientFailure;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.codec.quic.QuicClosedChannelException;
import io.netty.handler.codec.quic.QuicConnectionCloseEvent;
import io.netty.handler.codec.quic.QuicStreamResetException;
import io.netty.handler.codec.quic.QuicTimeoutClosedChannelException;

import java.nio.charset.StandardCharsets;

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
            QuicConnectionCloseEvent event = switch (t) {
                case HandshakeWatch.HandshakeRefused refused -> refused.event();
                case QuicClosedChannelException closed -> closed.event();
                default -> null;
            };
            if (event != null && event.isTlsError()
                    && QuicConnectionCloseEvent.extractTlsError(event.error()) == NO_APPLICATION_PROTOCOL) {
                return true;
            }
        }
        return false;
    }

    /** A peer's close as a person reads it: {@code TLS alert 120: No common ALPN protocols}, or its QUIC error code. */
    static String describe(QuicConnectionCloseEvent event) {
        String reason = event.reason() == null || event.reason().length == 0 ? ""
                : ": " + new String(event.reason(), StandardCharsets.UTF_8);
        return (event.isTlsError() ? "TLS alert " + QuicConnectionCloseEvent.extractTlsError(event.error())
                : (event.isApplicationClose() ? "application error " : "QUIC error ") + event.error()) + reason;
    }

    static Throwable classified(Throwable failure) {
        return switch (failure) {
            case ClientFailure known -> known;
            case ConnectTimeoutException timeout ->
                    new ClientFailure(ErrorClass.CONNECT_TIMEOUT, "no QUIC handshake answer: " + timeout.getMessage(), timeout);
            case HandshakeWatch.HandshakeRefused refused -> new ClientFailure(
                    refused.event().isTlsError() ? ErrorClass.TLS : ErrorClass.RESET, refused.getMessage(), refused);
            case QuicTimeoutClosedChannelException idle ->
                    new ClientFailure(ErrorClass.RESET, "the QUIC connection went silent until its idle timeout", idle);
            case QuicClosedChannelException closed when closed.event() != null && closed.event().isTlsError() ->
                    new ClientFailure(ErrorClass.TLS, "the QUIC handshake failed: " + describe(closed.event()), closed);
            case QuicClosedChannelException closed -> new ClientFailure(ErrorClass.RESET, "the QUIC connection closed"
                    + (closed.event() == null ? "" : ": " + describe(closed.event())), closed);
            case QuicStreamResetException reset ->
                    new ClientFailure(ErrorClass.STREAM_RESET, "the server reset the stream: " + reset.getMessage(), reset);
            default -> failure;
        };
    }
}
