package dev.gauntlet.targets.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;

/**
 * TLS with HTTP/2: once the handshake is done, the pipeline of the protocol ALPN agreed on; HTTP/1.1 for a client that
 * named none.
 */
final class AlpnPipelineChooser extends ApplicationProtocolNegotiationHandler {
    private final HelloPipelines pipelines;

    AlpnPipelineChooser(HelloPipelines pipelines) {
        super(ApplicationProtocolNames.HTTP_1_1);
        this.pipelines = pipelines;
    }

    @Override
    protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
        switch (protocol) {
            case ApplicationProtocolNames.HTTP_2 -> pipelines.http2(ctx.pipeline());
            case ApplicationProtocolNames.HTTP_1_1 -> pipelines.http1(ctx.pipeline());
            default -> throw new IllegalStateException("ALPN agreed on " + protocol + ", which the server does not offer");
        }
    }

    /** As without ALPN: the connection is closed, with no log line per failing client. */
    @Override
    protected void handshakeFailure(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
