package dev.gauntlet.targets.netty;

import dev.gauntlet.targets.TargetTls;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

import javax.net.ssl.SSLException;

/**
 * The data port's TLS context: OpenSSL, that is the BoringSSL that netty-tcnative's static jar carries, as a Netty
 * deployment serving TLS would use. Where that native library cannot load (a machine it is not built for) the JDK's
 * JSSE stands in, and stderr says so, since the figures are then of another TLS implementation.
 */
final class NettyTls {
    private NettyTls() {
    }

    /** With {@code http2}, ALPN offers h2, then http/1.1. */
    static SslContext serverContext(TargetTls tls, boolean http2) throws SSLException {
        SslProvider provider = SslProvider.OPENSSL;
        if (!OpenSsl.isAvailable()) {
            System.err.println("target: OpenSSL (netty-tcnative) cannot be loaded, TLS is on JSSE: "
                    + OpenSsl.unavailabilityCause());
            provider = SslProvider.JDK;
        }
        SslContextBuilder builder = SslContextBuilder.forServer(tls.privateKey(), tls.certificateChain())
                .sslProvider(provider);
        if (http2) {
            // The behaviours both providers support: a client offering neither protocol gets no ALPN answer and is
            // served HTTP/1.1.
            builder.applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                    ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                    ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                    ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1));
        }
        return builder.build();
    }
}
