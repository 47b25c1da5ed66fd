package dev.gauntlet.targets.undertow;

import dev.gauntlet.targets.DelayedCompletion;

/**
 * {@code undertow-servlet-async-timer}: the servlet starts async mode and schedules the completion on
 * {@link DelayedCompletion#viaTimer()}'s one thread, the wait counted from there; that thread writes the
 * response and calls {@code AsyncContext.complete()}.
 */
public final class UndertowServletAsyncTimer extends DelayedUndertowServlet {
    public UndertowServletAsyncTimer() {
        super(DelayedCompletion::viaTimer);
    }
}
