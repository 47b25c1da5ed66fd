package dev.gauntlet.loadgen.engine;

import dev.gauntlet.api.Protocol;
import dev.gauntlet.api.TlsTrust;

import java.net.URI;
import javax.net.ssl.SSLContext;
import javax.net.ssl.X509TrustManager;

/**
 * What a client library engine is built with: the one URL every request gets, the protocol, the timeouts, and
 * how many requests the driver may have in flight at once. An engine sizes every pool, queue and
 * per-host limit of its library to at least {@code maxConcurrency}, so that the library never caps,
 * queues or delays a request the driver sent; the driver's schedule alone decides the load.
 *
 * <p>Every engine sends the same request as the built-in lean engine, and nothing else:
 * <pre>
 * GET {path}?{query} HTTP/1.1
 * Host: {host}:{port}
 * User-Agent: gauntlet
 * </pre>
 * HTTP/1.1 with keep-alive, no compression ({@code Accept-Encoding}), no upgrade to HTTP/2, no
 * redirects followed, no retries, no cookies. Headers a library cannot leave out are listed per
 * library in docs/clients.md.
 *
 * <p>Over HTTP/2 ({@link #http2()}) the same GET goes as a stream: over TLS offered by ALPN as {@code h2} alone, in
 * clear ({@code h2c}) with prior knowledge, never by an {@code Upgrade}. Over HTTP/3 ({@link #http3()}, https only) it
 * goes as a stream of a QUIC connection, over UDP to the URL's port, offered by ALPN as {@code h3}. An engine reports
 * the version each response came on ({@link ClientResponse#version()}): one on another version than asked fails as
 * {@code PROTOCOL}, so a library that fell back to HTTP/1.1 in silence is seen. Over TLS an engine trusts what {@link #trustManager()} trusts and
 * checks the server's name unless {@link #checksHostName()} is false ({@code --insecure}).
 *
 * @param url               http://host:port/path?query or https://..., requested with GET
 * @param connectTimeoutMs  a connect that takes longer fails as {@code CONNECT_TIMEOUT}
 * @param responseTimeoutMs a response not whole this long after the send fails as {@code RESPONSE_TIMEOUT}
 * @param maxConcurrency    requests in flight at most, so connections open at most; pools are sized to it
 * @param version           the HTTP version to send the requests on: HTTP/1.1, HTTP/2 (h2 or h2c) or HTTP/3 (h3)
 * @param trust             https: the certificates accepted
 */
public record ClientSettings(URI url, long connectTimeoutMs, long responseTimeoutMs, int maxConcurrency,
                             ClientResponse.Version version, TlsTrust trust) {
    /** The {@code User-Agent} every engine sends, as the lean engine does. */
    public static final String USER_AGENT = "gauntlet";
    /**
     * HTTP/3: the flow-control credit an engine grants the server, a connection's (room for many streams' windows at
     * once) and a stream's, as the targets' QUIC listeners grant the client; the same for every engine, the built-in
     * one and a library's, so that none is held back by its own windows.
     */
    public static final long QUIC_CONNECTION_WINDOW_BYTES = 16L << 20;
    public static final long QUIC_STREAM_WINDOW_BYTES = 1L << 20;
    /** HTTP/3: how long past the response timeout a silent connection lives, so that its idle timeout never ends a request first. */
    private static final long QUIC_IDLE_MARGIN_MS = 5_000;

    public ClientSettings {
        if (maxConcurrency < 1) {
            throw new IllegalArgumentException("max concurrency must be >= 1, got " + maxConcurrency);
        }
        if (version == null) {
            version = ClientResponse.Version.HTTP_1_1;
        }
        if (version == ClientResponse.Version.HTTP_3 && !"https".equals(url.getScheme())) {
            throw new IllegalArgumentException("HTTP/3 is over TLS only (QUIC): an https:// URL, got " + url);
        }
        if (trust == null) {
            trust = TlsTrust.SYSTEM;
        }
    }

    /** Cleartext HTTP/1.1 with the JDK's trust: what every engine speaks. */
    public ClientSettings(URI url, long connectTimeoutMs, long responseTimeoutMs, int maxConcurrency) {
        this(url, connectTimeoutMs, responseTimeoutMs, maxConcurrency, ClientResponse.Version.HTTP_1_1, TlsTrust.SYSTEM);
    }

    /** HTTP/3: a connection's idle timeout, beyond the response timeout. */
    public long quicIdleTimeoutMs() {
        return responseTimeoutMs + QUIC_IDLE_MARGIN_MS;
    }

    /** {@code host:port} as the {@code Host} header carries it. */
    public String hostHeader() {
        return url.getPort() < 0 ? url.getHost() : url.getHost() + ":" + url.getPort();
    }

    /** Whether the requests go as HTTP/2 streams (h2 or h2c). */
    public boolean http2() {
        return version == ClientResponse.Version.HTTP_2;
    }

    /** Whether the requests go as HTTP/3 streams of QUIC connections (h3). */
    public boolean http3() {
        return version == ClientResponse.Version.HTTP_3;
    }

    public Protocol protocol() {
        return Protocol.of(tls(), http2(), http3());
    }

    /** Whether the URL is {@code https}. */
    public boolean tls() {
        return "https".equals(url.getScheme());
    }

    /** Whether the server's certificate must name the URL's host: not when insecure. */
    public boolean checksHostName() {
        return !trust.insecure();
    }

    /**
     * A JDK TLS context trusting what {@link #trust()} says (any certificate when insecure; it does not check the
     * host's name, which {@link #checksHostName()} leaves to the library); a certificate file that cannot be read is
     * an {@link IllegalArgumentException} naming it.
     */
    public SSLContext sslContext() {
        return TlsClient.of(trust, url.getHost(), url.getPort(), http2()).context();
    }

    /** The trust manager of {@link #sslContext()}, for a library that takes one rather than a context (Netty's). */
    public X509TrustManager trustManager() {
        return TlsClient.trustManager(trust);
    }
}
