package dev.gauntlet.targets.micronaut;

import io.micronaut.context.ApplicationContext;
import io.micronaut.http.server.netty.NettyEmbeddedServer;
import io.micronaut.http.server.netty.NettyEmbeddedServerFactory;
import io.micronaut.http.server.netty.configuration.NettyHttpServerConfiguration;
import io.micronaut.http.server.netty.configuration.NettyHttpServerConfiguration.NettyListenerConfiguration;

import java.util.List;
import java.util.Map;

/**
 * HTTP/3 beside the TCP port: Micronaut's own QUIC listener (Netty's QUIC codec: quiche with BoringSSL, from its native
 * jar) on the UDP port of the TCP port's number, with the same key store. A listener's port is configuration, fixed
 * before the server binds, and the TCP port is the system's choice with {@code --port 0}: so the QUIC listener is the
 * only one of a second Netty server of the same application context, built once the first has bound. Its configuration
 * is a fresh binding of the same {@code micronaut.server} properties (event loops, TLS, HTTP/3 limits, date header),
 * with that listener alone and none of the listening socket's options (a backlog is a TCP server's; Netty warns of it on
 * a datagram channel); it routes to the same controllers.
 */
final class Http3Listener {
    private static final String NAME = "gauntlet-h3";

    private Http3Listener() {
    }

    /** Starts a server of {@code context} listening on {@code bind:port} over QUIC; stopping it unbinds it. */
    static NettyEmbeddedServer start(ApplicationContext context, String bind, int port) {
        NettyListenerConfiguration quic = new NettyListenerConfiguration(NAME);
        quic.setFamily(NettyListenerConfiguration.Family.QUIC);
        quic.setSsl(true);
        quic.setHost(bind);
        quic.setPort(port);
        NettyHttpServerConfiguration configuration = context.createBean(NettyHttpServerConfiguration.class);
        configuration.setListeners(List.of(quic));
        configuration.setOptions(Map.of());
        return context.getBean(NettyEmbeddedServerFactory.class).build(configuration).start();
    }
}
