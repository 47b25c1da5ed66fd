package dev.gauntlet.targets.springmvc;

import dev.gauntlet.targets.HelloServer;

/**
 * The Spring MVC targets, one factory per style, as the target catalogue names them ({@code SpringMvcTargets#mvcSync}):
 * Spring Boot, Spring MVC on embedded Tomcat, the controller sleeping out the wait on the request thread.
 */
public final class SpringMvcTargets {
    private SpringMvcTargets() {
    }

    /** {@code spring-mvc-sync}: the request thread is one of Tomcat's platform workers, up to {@code workers} ({@code server.tomcat.threads.max}). */
    public static HelloServer mvcSync() {
        return new SpringMvcServer(false);
    }

    /** {@code spring-mvc-virtual}: Boot's {@code spring.threads.virtual.enabled} gives Tomcat a new virtual thread per request. */
    public static HelloServer mvcVirtual() {
        return new SpringMvcServer(true);
    }
}
