package dev.gauntlet.targets.springmvc;

import dev.gauntlet.targets.TargetSettings;
import org.apache.catalina.connector.Connector;
import org.apache.coyote.UpgradeProtocol;
import org.apache.coyote.http2.Http2Protocol;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The Spring Boot application: auto-configuration as any Boot service has it (Spring MVC, Tomcat,
 * Jackson, error pages) and {@link HelloController}. No component scan: the one controller is
 * imported, so start-up does not depend on what else shares the package.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(HelloController.class)
class HelloMvcApplication {

    /**
     * The connector settings Boot has no property for, set as on the {@code tomcat} target:
     * {@code TCP_NODELAY}, {@code SO_REUSEADDR}, and no {@code Keep-Alive: timeout=60} header
     * beside {@code Connection: keep-alive} for HTTP/1.0 keep-alive clients.
     */
    @Bean
    TomcatConnectorCustomizer socketOptions(TargetSettings settings) {
        return connector -> {
            setProperty(connector, "tcpNoDelay", settings.tcpNoDelay());
            setProperty(connector, "socket.soReuseAddress", settings.reuseAddress());
            setProperty(connector, "useKeepAliveResponseHeader", false);
        };
    }

    /**
     * Every stream an HTTP/2 connection may open (100) runs at once, as on the {@code tomcat} target: the
     * {@code Http2Protocol} Boot adds for {@code server.http2.enabled} runs 20 and queues the rest, which would cap a
     * multiplexing client's concurrency below the style's. Boot runs connector customizers after adding it.
     */
    @Bean
    TomcatConnectorCustomizer http2StreamExecution() {
        return connector -> {
            for (UpgradeProtocol upgrade : connector.findUpgradeProtocols()) {
                if (upgrade instanceof Http2Protocol http2) {
                    http2.setMaxConcurrentStreamExecution(Math.toIntExact(http2.getMaxConcurrentStreams()));
                }
            }
        };
    }

    private static void setProperty(Connector connector, String name, boolean value) {
        if (!connector.setProperty(name, String.valueOf(value))) {
            throw new IllegalStateException("Tomcat connector has no property " + name);
        }
    }
}
