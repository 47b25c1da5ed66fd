package dev.gauntlet.loadgen.engine;

import java.net.URI;

/**
 * What a client library engine is built with: the one URL every request gets, the timeouts, and
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
 * @param url               http://host:port/path?query, requested with GET
 * @param connectTimeoutMs  a connect that takes longer fails as {@code CONNECT_TIMEOUT}
 * @param responseTimeoutMs a response not whole this long after the send fails as {@code RESPONSE_TIMEOUT}
 * @param maxConcurrency    requests in flight at most, so connections open at most; pools are sized to it
 */
public record ClientSettings(URI url, long connectTimeoutMs, long responseTimeoutMs, int maxConcurrency) {
    /** The {@code User-Agent} every engine sends, as the lean engine does. */
    public static final String USER_AGENT = "gauntlet";

    public ClientSettings {
        if (maxConcurrency < 1) {
            throw new IllegalArgumentException("max concurrency must be >= 1, got " + maxConcurrency);
        }
    }

    /** {@code host:port} as the {@code Host} header carries it. */
    public String hostHeader() {
        return url.getPort() < 0 ? url.getHost() : url.getHost() + ":" + url.getPort();
    }
}
