package dev.gauntlet.targets.springwebflux;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import reactor.core.scheduler.Schedulers;

import java.util.List;

/**
 * {@code spring-webflux-event-loop}: Spring Boot, a WebFlux annotated controller on Reactor Netty.
 * The controller returns at once with a {@code Mono.delay} (a timer on Reactor's parallel scheduler),
 * so no thread is held while a request waits; Reactor Netty writes the response on the
 * connection's event loop. TLS and HTTP/2 come from {@link HelloWebfluxApplication#protocols}.
 *
 * <p>Boot starts inside the target's JVM from the flat classpath (no fat jar). The settings go in
 * as command-line properties, the highest-precedence source Boot reads, so no environment variable
 * or stray {@code application.properties} can change what the target reports in {@code /settings}.
 */
public final class SpringWebfluxEventLoop implements HelloServer {
    private ConfigurableApplicationContext context;

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
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    @Override
    public void stop() {
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
