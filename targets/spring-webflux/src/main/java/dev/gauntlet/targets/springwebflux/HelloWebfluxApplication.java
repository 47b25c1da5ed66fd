package dev.gauntlet.targets.springwebflux;

import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.TargetTls;
import io.netty.channel.ChannelOption;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.client.ReactorResourceFactory;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.Http2SslContextSpec;
import reactor.netty.http.HttpProtocol;
import reactor.netty.resources.LoopResources;

import java.time.Duration;

/**
 * The Spring Boot application: auto-configuration as any Boot service has it (WebFlux, Reactor
 * Netty, Jackson codecs, error handling) and {@link HelloController}. No component scan: the one
 * controller is imported, so start-up does not depend on what else shares the package.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(HelloController.class)
class HelloWebfluxApplication {
    /** Reactor Netty's default quiet period is 2 s and its timeout 15 s, longer than TargetMain's 3 s grace. */
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(1);

    /**
     * The server's event loops: {@code ioThreads} of them (epoll where available), serving accepts
     * and connections alike. Boot backs off its own factory, which would take Reactor Netty's
     * global loops ({@code max(CPUs, 4)}, sized only by a system property); this one owns its
     * loops and closes them with the context.
     */
    @Bean
    ReactorResourceFactory reactorResourceFactory(TargetSettings settings) {
        ReactorResourceFactory factory = new ReactorResourceFactory();
        factory.setUseGlobalResources(false);
        factory.setLoopResourcesSupplier(() -> LoopResources.create("reactor-http", settings.ioThreads(), true));
        factory.setShutdownQuietPeriod(Duration.ZERO);
        factory.setShutdownTimeout(SHUTDOWN_TIMEOUT);
        return factory;
    }

    /** The socket settings Boot has no property for: the listen backlog, SO_REUSEADDR, TCP_NODELAY. */
    @Bean
    NettyServerCustomizer socketOptions(TargetSettings settings) {
        return server -> server
                .option(ChannelOption.SO_BACKLOG, settings.backlog())
                .option(ChannelOption.SO_REUSEADDR, settings.reuseAddress())
                .childOption(ChannelOption.TCP_NODELAY, settings.tcpNoDelay());
    }

    /**
     * TLS and HTTP/2 as the settings ask, on Reactor Netty's own API with the key in memory (Boot's
     * {@code server.ssl} would want a key store file): Netty's JDK TLS (JSSE; netty-tcnative is not on this classpath),
     * ALPN offering h2 and http/1.1, and in clear h2c beside HTTP/1.1 (prior knowledge and the upgrade). Boot sets
     * HTTP/1.1 alone before it runs the customizers, so these protocols replace its.
     */
    @Bean
    NettyServerCustomizer protocols(TargetSettings settings) {
        return server -> {
            TargetTls tls = settings.tls();
            if (tls == null) {
                return settings.http2() ? server.protocol(HttpProtocol.HTTP11, HttpProtocol.H2C) : server;
            }
            if (!settings.http2()) {
                return server.secure(spec -> spec.sslContext(
                        Http11SslContextSpec.forServer(tls.privateKey(), tls.certificateChain())));
            }
            return server.secure(spec -> spec.sslContext(Http2SslContextSpec.forServer(tls.privateKey(), tls.certificateChain())))
                    .protocol(HttpProtocol.HTTP11, HttpProtocol.H2);
        };
    }
}
