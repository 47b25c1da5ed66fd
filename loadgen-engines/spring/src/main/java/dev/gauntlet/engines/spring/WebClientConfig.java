package dev.gauntlet.engines.spring;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientSettings;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.http.HttpHeaderNames;
import org.springframework.http.HttpHeaders;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

import java.time.Duration;

/**
 * The {@link WebClient} of {@link SpringAsyncClient}, on Reactor Netty
 * ({@link ReactorClientHttpConnector}) with a connection pool and event loops of its own, so that
 * {@link #close} releases them, rather than Reactor Netty's global resources.
 *
 * <p>The Reactor Netty {@link HttpClient} is set up as the {@code reactor} engine's: the pool's 16
 * connections (twice as many pending) become {@code maxConcurrency} with no pending limit; no retry
 * on a reused connection closed before the response; {@code User-Agent: gauntlet} and no
 * {@code Accept: *}{@code /*}; the settings' connect timeout; HTTP/1.1, keep-alive, no
 * compression, no redirects pinned. Spring's own settings: every status returns as a response
 * ({@code defaultStatusHandler}, where a 4xx or 5xx would be an error), and the response timeout
 * is the {@code Mono}'s timeout, from subscription to the whole body, whose cancellation closes
 * the connection. Spring adds no header of its own here.
 */
final class WebClientConfig implements AutoCloseable {
    private final ConnectionProvider pool;
    private final LoopResources loops;
    private final WebClient webClient;
    private final Duration responseTimeout;

    WebClientConfig(ClientSettings settings) {
        this.responseTimeout = Duration.ofMillis(settings.responseTimeoutMs());
        this.pool = ConnectionProvider.builder("gauntlet-spring")
                .maxConnections(settings.maxConcurrency())
                .pendingAcquireMaxCount(-1)
                .pendingAcquireTimeout(responseTimeout)
                .build();
        this.loops = LoopResources.create("gauntlet-spring");
        HttpClient httpClient = HttpClient.create(pool)
                .runOn(loops)
                .protocol(HttpProtocol.HTTP11)
                .keepAlive(true)
                .compress(false)
                .followRedirect(false)
                .disableRetry(true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, Math.toIntExact(settings.connectTimeoutMs()))
                .doOnRequest((request, connection) -> request.requestHeaders().remove(HttpHeaderNames.ACCEPT));
        this.webClient = WebClient.builder()
                .clientConnector(new ReactorClientHttpConnector(httpClient))
                .baseUrl(settings.url().toString())
                .defaultHeader(HttpHeaders.USER_AGENT, ClientSettings.USER_AGENT)
                .defaultStatusHandler(status -> true, response -> Mono.empty())
                .build();
    }

    WebClient webClient() {
        return webClient;
    }

    Duration responseTimeout() {
        return responseTimeout;
    }

    /**
     * The failure as the driver should class it, where {@link ClientFailure#classify} cannot read
     * it: a response Netty's decoder rejects fails with the decoder's own exception (an
     * {@link IllegalArgumentException} for a bad status line, a {@link DecoderException} for
     * headers too long), wrapped by Spring, and is {@code PROTOCOL}.
     */
    static Throwable classified(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof IllegalArgumentException || t instanceof DecoderException) {
                return new ClientFailure(ErrorClass.PROTOCOL, t.getMessage(), failure);
            }
        }
        return failure;
    }

    @Override
    public void close() {
        pool.disposeLater().block();
        loops.disposeLater(Duration.ZERO, Duration.ofSeconds(5)).block();
    }
}
