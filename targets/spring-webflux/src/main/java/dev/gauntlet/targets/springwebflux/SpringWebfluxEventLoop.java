package dev.gauntlet.targets.springwebflux;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;

import java.time.Duration;
import java.util.List;

/**
 * {@code spring-webflux-event-loop}: Spring Boot, a WebFlux annotated controller on Reactor Netty.
 * The controller returns at once with a {@code Mono.delay} (a timer on Reactor's parallel scheduler),
 * so no thread is held while a request waits; Reactor Netty writes the response on the
 * connection's event loop. TLS and HTTP/2 come from {@link HelloWebfluxApplication#protocols}; HTTP/3, on UDP beside
 * Boot's TCP port, from an {@link Http3Listener} this class binds once that port is known and unbinds first at stop.
 *
 * <p>Boot starts inside the target's JVM from the flat classpath (no fat jar). The settings go in
 * as command-line properties, the highest-precedence source Boot reads, so no environment variable
 * or stray {@code application.properties} can change what the target reports in {@code /settings}.
 */
public final class SpringWebfluxEventLoop implements HelloServer {
    /** Waited for the HTTP/3 listener's channel to close at stop: bounded, well within TargetMain's grace. */
    private static final Duration HTTP3_UNBIND_TIMEOUT = Duration.ofSeconds(1);

    private ConfigurableApplicationContext context;
    private DisposableServer http3;

    @Override
    public boolean servesHttp3() {
        return true;
    }

    @Override
    public int start(TargetSettings settings, RequestStats stats) {
        SpringApplication application = new SpringApplication(HelloWebfluxApplication.class);
        application.setWebApplicationType(WebApplicationType.REACTIVE);
        application.setBannerMode(Banner.Mode.OFF);
        application.setLogStartupInfo(false);
        // TargetMain's shutdown hook closes the context; Boot's own hook would race it.
        application.setRegisterShutdownHook(false);
        application.addInitializers(context -> {
            context.getBeanFactory().registerSingleton("targetSettings", settings);
            context.getBeanFactory().registerSingleton("requestStats", stats);
        });
        context = application.run(properties(settings));
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        if (settings.http3()) {
            http3 = Http3Listener.bind(settings.bind(), port, settings.tls(), context.getBean(HttpHandler.class),
                    context.getBean(ReactorResourceFactory.class).getLoopResources());
        }
        return port;
    }

    @Override
    public void stop() {
        // Before the context, which shuts down the event loops the listener runs on.
        if (http3 != null) {
            http3.disposeNow(HTTP3_UNBIND_TIMEOUT);
        }
        if (context != null) {
            context.close();
        }
        // The timers' threads: Reactor's shared schedulers outlive any application context.
        Schedulers.shutdownNow();
    }

    private static String[] properties(TargetSettings settings) {
        return List.of(
                "--server.address=" + settings.bind(),
                "--server.port=" + settings.port(),
                // Boot 4 defaults to a graceful shutdown that waits for requests in progress (up to 30 s).
                "--server.shutdown=immediate",
                // Only warnings and errors reach the console: nothing is logged on the request path.
                "--logging.level.root=warn",
                "--logging.register-shutdown-hook=false").toArray(String[]::new);
    }
}
