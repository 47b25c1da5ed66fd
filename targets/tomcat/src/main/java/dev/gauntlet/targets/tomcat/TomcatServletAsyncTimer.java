package dev.gauntlet.targets.tomcat;

import dev.gauntlet.targets.DelayedCompletion;

/**
 * {@code tomcat-servlet-async-timer}: the servlet starts async mode and schedules the completion on
 * {@link DelayedCompletion#viaTimer()}'s one thread, the wait counted from there; that thread writes the
 * response and calls {@code AsyncContext.complete()}.
 */
public final class TomcatServletAsyncTimer extends DelayedTomcatServlet {
    public TomcatServletAsyncTimer() {
        super(DelayedCompletion::viaTimer);
    }
}
