package dev.gauntlet.engines.spring;

import dev.gauntlet.loadgen.engine.ClientSettings;
import org.springframework.http.HttpHeaders;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

import java.net.http.HttpClient;
import java.time.Duration;

/**
 * The {@link RestClient} of {@link SpringBlockingClient}, on a request factory chosen here rather
 * than by Spring: Spring picks by classpath (Apache HttpClient, Jetty, Reactor Netty, then the
 * JDK's), and would take Reactor Netty here, which this module carries for the WebClient. The JDK's
 * {@link HttpClient} ({@link JdkClientHttpRequestFactory}) is what a Spring MVC service gets
 * without a client library of its own, it keeps the blocking calls off Netty's event loops, and
 * it is the {@code jdk} engine's client, so {@code spring-platform} against {@code jdk-platform}
 * is Spring's own cost.
 *
 * <p>The {@code HttpClient} is set up as the {@code jdk} engine's: HTTP/1.1 only (HTTP/2 would add
 * {@code Upgrade: h2c}), no redirects, no proxy, the settings' connect timeout, completions on its
 * selector thread (a direct executor, rather than a cached pool that grows a thread per burst), and
 * the same three process-wide {@code jdk.httpclient.*} properties: idle connections kept an hour
 * (30 s by default), no second connect attempt, and one attempt per request, so that a GET whose
 * kept-alive connection fails before the response is not sent again. The pool has no cap.
 *
 * <p>Spring's own defaults it replaces:
 * <ul>
 *   <li>{@code Accept-Encoding: gzip, deflate} and decompression, on by default in Spring 7's
 *       JDK request factory: off;</li>
 *   <li>no read timeout: the response timeout, which Spring applies as a deadline from the send
 *       to the end of the body (it cancels the exchange);</li>
 *   <li>a 4xx or 5xx status thrown as an exception: every status returns as a response
 *       ({@code defaultStatusHandler}), for the driver to judge.</li>
 * </ul>
 * {@code User-Agent: gauntlet} is a default header (the JDK client would send
 * {@code Java-http-client/25}). Spring adds no other header here: no {@code Accept} for a
 * {@code byte[]} body, no cookies.
 */
final class RestClientConfig {
    static {
        // Read once by the JDK, when its client classes load, and process-wide: see the jdk engine's JdkConfig.
        System.setProperty("jdk.httpclient.keepalive.timeout", "3600");
        System.setProperty("jdk.httpclient.disableRetryConnect", "true");
        System.setProperty("jdk.httpclient.redirects.retrylimit", "1");
    }

    private RestClientConfig() {
    }

    static HttpClient httpClient(ClientSettings settings) {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .proxy(HttpClient.Builder.NO_PROXY)
                .connectTimeout(Duration.ofMillis(settings.connectTimeoutMs()))
                .executor(Runnable::run)
                .build();
    }

    static RestClient restClient(HttpClient httpClient, ClientSettings settings) {
        JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(httpClient);
        factory.enableCompression(false);
        factory.setReadTimeout(Duration.ofMillis(settings.responseTimeoutMs()));
        return RestClient.builder()
                .requestFactory(factory)
                .defaultHeader(HttpHeaders.USER_AGENT, ClientSettings.USER_AGENT)
                .defaultStatusHandler(status -> true, (request, response) -> {
                })
                .build();
    }
}
