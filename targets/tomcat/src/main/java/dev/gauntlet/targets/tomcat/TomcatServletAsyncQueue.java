package dev.gauntlet.targets.tomcat;

import dev.gauntlet.targets.DelayedCompletion;

/**
 * {@code tomcat-servlet-async-queue}: the servlet starts async mode and stores the request in
 * {@link DelayedCompletion#viaQueue()}; the completion thread writes the response and calls
 * {@code AsyncContext.complete()}.
 */
public final class TomcatServletAsyncQueue extends DelayedTomcatServlet {
    public TomcatServletAsyncQueue() {
        super(DelayedCompletion::viaQueue);
    }
}
