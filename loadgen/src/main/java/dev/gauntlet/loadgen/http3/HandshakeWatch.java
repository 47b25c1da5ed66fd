package dev.gauntlet.loadgen.http3;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicConnectionCloseEvent;
import io.netty.util.concurrent.Promise;

/**
 * Ends a connection's handshake as soon as the server refuses it. Netty's QUIC codec hears the server's
 * {@code CONNECTION_CLOSE} during the handshake (a TLS alert: a certificate refused, no ALPN protocol in common) as an
 * event, but fails the connect only when its timeout runs out; this handler fails the handshake's promise on that event,
 * with what the server said, and passes the promise the connect's own outcome otherwise. It removes itself once the
 * handshake is over.
 */
final class HandshakeWatch extends ChannelInboundHandlerAdapter {
    private final Promise<QuicChannel> handshake;

    HandshakeWatch(Promise<QuicChannel> handshake) {
        this.handshake = handshake;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof QuicConnectionCloseEvent closed) {
            handshake.tryFailure(new HandshakeRefused(closed));
        }
        ctx.fireUserEventTriggered(event);
    }

    /** The server closed the connection during its handshake, with {@link #event()}'s error. */
    static final class HandshakeRefused extends Exception {
        private final transient QuicConnectionCloseEvent event;

        HandshakeRefused(QuicConnectionCloseEvent event) {
            super("the server closed the QUIC handshake with " + QuicFailures.describe(event));
            this.event = event;
        }

        QuicConnectionCloseEvent event() {
            return event;
        }
    }
}
