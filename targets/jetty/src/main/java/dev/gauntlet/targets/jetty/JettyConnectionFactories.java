package dev.gauntlet.targets.jetty;

import dev.gauntlet.targets.TargetSettings;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

import java.security.GeneralSecurityException;

/**
 * The protocols of a Jetty 12 connector as the target settings ask for them: HTTP/1.1, with {@code --tls} over the
 * JDK's TLS (JSSE), and with {@code --http2} HTTP/2 beside it on the same port. Public so that every server on Jetty
 * (this module's and Javalin's) wires its connector alike.
 */
public final class JettyConnectionFactories {
    private JettyConnectionFactories() {
    }

    /**
     * The connector's protocols, the one a connection starts with first: HTTP/1.1 alone unless the settings ask for
     * more. In clear, Jetty's HTTP/1.1 connection hands a connection that opens with the HTTP/2 preface to the h2c
     * factory; over TLS, ALPN picks h2 or http/1.1 (http/1.1 for a client that offers neither). HTTP/2 allows 128
     * concurrent streams per connection (Jetty's default). With TLS, {@code http} gets a
     * {@link SecureRequestCustomizer}.
     */
    public static ConnectionFactory[] of(TargetSettings settings, HttpConfiguration http) throws GeneralSecurityException {
        if (settings.tls() == null) {
            HttpConnectionFactory http1 = new HttpConnectionFactory(http);
            return settings.http2() ? new ConnectionFactory[] {http1, new HTTP2CServerConnectionFactory(http)}
                    : new ConnectionFactory[] {http1};
        }
        // So that requests say https and servlets see them as secure.
        http.addCustomizer(new SecureRequestCustomizer());
        HttpConnectionFactory http1 = new HttpConnectionFactory(http);
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setSslContext(settings.tls().sslContext());
        if (!settings.http2()) {
            return new ConnectionFactory[] {new SslConnectionFactory(ssl, http1.getProtocol()), http1};
        }
        // ALPN's names; the HTTP/1.1 factory's own is "HTTP/1.1", which no client offers.
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2", "http/1.1");
        alpn.setDefaultProtocol("http/1.1");
        return new ConnectionFactory[] {new SslConnectionFactory(ssl, alpn.getProtocol()), alpn,
                new HTTP2ServerConnectionFactory(http), http1};
    }
}
