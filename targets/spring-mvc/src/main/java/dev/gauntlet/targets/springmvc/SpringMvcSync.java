package dev.gauntlet.targets.springmvc;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

/**
 * {@code spring-mvc-sync}: Spring Boot, Spring MVC on embedded Tomcat; the controller sleeps out
 * the wait on the request thread, one of Tomcat's platform workers: up to {@code workers}
 * ({@code server.tomcat.threads.max}).
 */
public final class SpringMvcSync implements HelloServer {
    private final SpringMvcServer server = new SpringMvcServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, stats, false);
    }

    @Override
    public void stop() {
        server.stop();
    }
}
