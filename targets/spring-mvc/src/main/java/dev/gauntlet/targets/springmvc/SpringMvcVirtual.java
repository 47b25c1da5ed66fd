package dev.gauntlet.targets.springmvc;

import dev.gauntlet.api.Protocol;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

import java.util.Set;

/**
 * {@code spring-mvc-virtual}: Spring Boot, Spring MVC on embedded Tomcat; the controller sleeps out
 * the wait on the request thread. Boot's {@code spring.threads.virtual.enabled} gives Tomcat a
 * virtual-thread executor: a new virtual thread per request.
 */
public final class SpringMvcVirtual implements HelloServer {
    private final SpringMvcServer server = new SpringMvcServer();

    @Override
    public Set<Protocol> protocols() {
        return SpringMvcServer.PROTOCOLS;
    }

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, stats, true);
    }

    @Override
    public void stop() {
        server.stop();
    }
}
