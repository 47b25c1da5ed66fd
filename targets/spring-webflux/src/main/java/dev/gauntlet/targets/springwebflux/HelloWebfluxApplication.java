package dev.gauntlet.targets.springwebflux;

import dev.gauntlet.targets.TargetSettings;
import io.netty.channel.ChannelOption;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.client.ReactorResourceFactory;
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
}
