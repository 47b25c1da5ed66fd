package dev.gauntlet.engines.reactor;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.loadgen.engine.ClientFailure;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2ResetFrame;

/**
 * First in each HTTP/2 stream's pipeline: a {@code RST_STREAM} from the server fails the stream's exchange as
 * {@code STREAM_RESET}. Netty hands the reset to the stream as an event and then closes the stream, and Reactor Netty
 * reports only the close, as the same {@code PrematureCloseException} a closed HTTP/1.1 connection gives, which
 * {@link ClientFailure#classify} can only take for a {@code RESET}. Fired as the stream's exception, the failure
 * reaches the exchange before the close does.
 */
@ChannelHandler.Sharable
final class StreamResetAsFailure extends ChannelInboundHandlerAdapter {
    static final String NAME = "gauntlet.streamReset";
    static final StreamResetAsFailure INSTANCE = new StreamResetAsFailure();

    private StreamResetAsFailure() {
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext context, Object event) throws Exception {
        if (event instanceof Http2ResetFrame reset) {
            Http2Error error = Http2Error.valueOf(reset.errorCode());
            context.fireExceptionCaught(new ClientFailure(ErrorClass.STREAM_RESET,
                    "the server reset the stream (" + (error == null ? reset.errorCode() : error) + ")", null));
        }
        super.userEventTriggered(context, event);
    }
}
