package dev.gauntlet.targets.tomcat;

import dev.gauntlet.targets.DelayedCompletion;

/**
 * {@code tomcat-servlet-async-fjp}: the servlet starts async mode and stores the request in
 * {@link DelayedCompletion#viaForkJoinPool()}; the completion thread writes the response and calls
 * {@code AsyncContext.complete()}.
 */
public final class TomcatServletAsyncFjp extends DelayedTomcatServlet {
    public TomcatServletAsyncFjp() {
        super(DelayedCompletion::viaForkJoinPool);
    }
}
