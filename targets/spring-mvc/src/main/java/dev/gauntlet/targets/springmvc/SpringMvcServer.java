package dev.gauntlet.targets.springmvc;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts Spring Boot with Spring MVC on its embedded Tomcat inside the target's JVM, from the flat
 * classpath (no fat jar), and stops it. The styles ({@link SpringMvcTargets}) differ only in Tomcat's executor.
 *
 * <p>The settings go in as command-line properties, the highest-precedence source Boot reads, so
 * no environment variable or stray {@code application.properties} can change what the target
 * reports in {@code /settings}. Tomcat's own settings are those of the {@code tomcat} target, so the
 * two differ only by the framework.
 *
 * <p>With {@code --tls}, Boot's {@code server.ssl} serves the target's key store over the JDK's TLS (JSSE: Boot adds
 * no OpenSSL listener, {@code server.tomcat.use-apr} being {@code never}); with {@code --http2},
 * {@code server.http2.enabled} serves HTTP/2 beside HTTP/1.1 on the same port.
 */
final class SpringMvcServer implements HelloServer {
    /** Above the process's open-files limit (20,000 here); Boot's default of 8,192 would cap every style. */
    private static final int MAX_CONNECTIONS = 100_000;

    /** Tomcat's virtual-thread executor ({@code spring.threads.virtual.enabled}) rather than its platform pool. */
    private final boolean virtualThreads;
    private ConfigurableApplicationContext context;

    SpringMvcServer(boolean virtualThreads) {
        this.virtualThreads = virtualThreads;
    }

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws GeneralSecurityException, IOException {
        SpringApplication application = new SpringApplication(HelloMvcApplication.class);
        application.setWebApplicationType(WebApplicationType.SERVLET);
        application.setBannerMode(Banner.Mode.OFF);
        application.setLogStartupInfo(false);
        // TargetMain's shutdown hook closes the context; Boot's own hook would race it.
        application.setRegisterShutdownHook(false);
        application.addInitializers(context -> {
            context.getBeanFactory().registerSingleton("targetSettings", settings);
            context.getBeanFactory().registerSingleton("requestStats", stats);
        });
        context = application.run(properties(settings, virtualThreads));
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    @Override
    public void stop() {
        if (context != null) {
            context.close();
        }
    }

    private static String[] properties(TargetSettings settings, boolean virtualThreads) throws GeneralSecurityException, IOException {
        List<String> properties = new ArrayList<>(List.of(
                "--server.address=" + settings.bind(),
                "--server.port=" + settings.port(),
                // The platform pool of the sync style; Boot ignores it when virtual threads are on.
                "--server.tomcat.threads.max=" + settings.workers(),
                "--spring.threads.virtual.enabled=" + virtualThreads,
                "--server.tomcat.accept-count=" + settings.backlog(),
                "--server.tomcat.max-connections=" + MAX_CONNECTIONS,
                // Tomcat closes a keep-alive connection after 100 requests by default; the other servers never do.
                "--server.tomcat.max-keep-alive-requests=-1",
                // Boot 4 defaults to a graceful shutdown that waits for requests in progress (up to 30 s).
                "--server.shutdown=immediate",
                // Only warnings and errors reach the console: nothing is logged on the request path.
                "--logging.level.root=warn",
                "--logging.register-shutdown-hook=false",
                // Boot adds Tomcat's Http2Protocol as the connector's upgrade protocol: ALPN's h2 and h2c prior knowledge.
                "--server.http2.enabled=" + settings.http2()));
        if (settings.tls() != null) {
            // Boot's SSL takes a key store by location only; TargetTls writes it to an owner-only file.
            properties.addAll(List.of(
                    "--server.ssl.key-store=" + settings.tls().keyStoreFile(),
                    "--server.ssl.key-store-type=PKCS12",
                    "--server.ssl.key-store-password=" + new String(settings.tls().password())));
        }
        return properties.toArray(String[]::new);
    }
}
