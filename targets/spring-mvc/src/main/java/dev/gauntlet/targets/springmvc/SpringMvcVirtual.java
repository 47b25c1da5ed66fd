package dev.gauntlet.targets.springmvc;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

/**
 * {@code spring-mvc-virtual}: Spring Boot, Spring MVC on embedded Tomcat; the controller sleeps out
 * the wait on the request thread. Boot's {@code spring.threads.virtual.enabled} gives Tomcat a
 * virtual-thread executor: a new virtual thread per request.
 */
public final class SpringMvcVirtual implements HelloServer {
    private final SpringMvcServer server = new SpringMvcServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, stats, true);
    }

    @Override
    public void stop() {
        server.stop();
    }
}
