package dev.gauntlet.engines.jersey;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientSettings;
import org.glassfish.jersey.client.ClientConfig;
import org.glassfish.jersey.client.HttpUrlConnectorProvider;
import org.glassfish.jersey.jdk.connector.JdkConnectorProperties;
import org.glassfish.jersey.jdk.connector.JdkConnectorProvider;
import org.glassfish.jersey.jdk.connector.internal.LocalizationMessages;

import java.io.IOException;
import java.net.CookiePolicy;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.time.Duration;

/**
 * The transport under the Jersey client: each constant installs its connector in a
 * {@link ClientConfig} with the settings that keep it from capping, queueing, retrying or adding
 * cookies, and knows how its failures read. Jersey's own settings, the same for both, are
 * {@link JerseyEngine}'s.
 */
enum JerseyConnector {
    /**
     * Jersey's default connector: the JDK's {@link HttpURLConnection}, one blocking call per request
     * on the calling thread. Its connections live in the JDK's process-wide keep-alive cache, which
     * two system properties shape (see {@link HttpUrlConnectionProperties}). A connection factory
     * opens every connection with {@link Proxy#NO_PROXY}, where the default factory would ask the
     * system's proxy selector ({@code http.proxyHost}). No cookie handler is installed (the JDK's
     * default is none). Its failures are the JDK's socket exceptions, which
     * {@link ClientFailure#classify} reads as they are.
     */
    HTTP_URL_CONNECTION {
        @Override
        void install(ClientConfig config, ClientSettings settings) {
            HttpUrlConnectionProperties.set();
            config.connectorProvider(new HttpUrlConnectorProvider()
                    .connectionFactory(url -> (HttpURLConnection) url.openConnection(Proxy.NO_PROXY)));
        }
    },

    /**
     * Jersey's JDK connector ({@code jersey-jdk-connector}): non-blocking, on NIO2 asynchronous
     * channels with its own pool and worker threads. Defaults it replaces:
     * <ul>
     *   <li>20 connections per destination, past which requests wait in an unbounded queue:
     *       {@code maxConcurrency};</li>
     *   <li>cookies kept ({@code ACCEPT_ORIGINAL_SERVER}): none;</li>
     *   <li>idle connections closed after 1,000 s: after a day, so one idle through a run is
     *       still there.</li>
     * </ul>
     * It adds {@code Content-Length: 0} to a request without a body, and sends no other header
     * of its own. Its timeouts fail with a plain {@link IOException} carrying the connector's
     * message, which {@link #classified} turns into the timeout it was.
     */
    JDK {
        private static final int IDLE_KEPT_MS = (int) Duration.ofDays(1).toMillis();

        @Override
        void install(ClientConfig config, ClientSettings settings) {
            config.connectorProvider(new JdkConnectorProvider())
                    .property(JdkConnectorProperties.MAX_CONNECTIONS_PER_DESTINATION, settings.maxConcurrency())
                    .property(JdkConnectorProperties.COOKIE_POLICY, CookiePolicy.ACCEPT_NONE)
                    .property(JdkConnectorProperties.CONNECTION_IDLE_TIMEOUT, IDLE_KEPT_MS);
        }

        @Override
        Throwable classified(Throwable failure) {
            for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
                if (t instanceof IOException && t.getMessage() != null) {
                    if (t.getMessage().equals(LocalizationMessages.CONNECTION_TIMEOUT())) {
                        return new ClientFailure(ErrorClass.CONNECT_TIMEOUT, t.getMessage(), failure);
                    }
                    if (t.getMessage().equals(LocalizationMessages.TIMEOUT_RECEIVING_RESPONSE())
                            || t.getMessage().equals(LocalizationMessages.TIMEOUT_RECEIVING_RESPONSE_BODY())) {
                        return new ClientFailure(ErrorClass.RESPONSE_TIMEOUT, t.getMessage(), failure);
                    }
                }
            }
            return failure;
        }
    };

    /** Puts this connector and its settings into the client's configuration. */
    abstract void install(ClientConfig config, ClientSettings settings);

    /** The failure as the driver should class it; as it came unless {@link ClientFailure#classify} would misread it. */
    Throwable classified(Throwable failure) {
        return failure;
    }

    /**
     * The two JDK system properties that shape {@link HttpURLConnection}'s keep-alive cache. The JDK
     * reads each once, when its HTTP classes first load, and they hold for the whole process, so
     * they are set before the first connection is opened.
     */
    private static final class HttpUrlConnectionProperties {
        static {
            // Idle connections kept per destination: 5 by default, so that after a burst of 200 all
            // but 5 are closed and the next burst connects again. It bounds only idle connections
            // (nothing waits for one), so no bound at all.
            System.setProperty("http.maxConnections", Integer.toString(Integer.MAX_VALUE));
            // Seconds an idle connection is kept when the server sends no Keep-Alive header: 5 by
            // default; an hour, longer than any run.
            System.setProperty("http.keepAlive.time.server", "3600");
        }

        private HttpUrlConnectionProperties() {
        }

        /** Sets them, once, by loading this class. */
        static void set() {
        }
    }
}
