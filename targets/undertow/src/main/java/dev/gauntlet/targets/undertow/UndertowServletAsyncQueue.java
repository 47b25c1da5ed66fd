package dev.gauntlet.targets.undertow;

import dev.gauntlet.targets.DelayedCompletion;

/**
 * {@code undertow-servlet-async-queue}: the servlet starts async mode and stores the request in
 * {@link DelayedCompletion#viaQueue()}; the completion thread writes the response and calls
 * {@code AsyncContext.complete()}.
 */
public final class UndertowServletAsyncQueue extends DelayedUndertowServlet {
    public UndertowServletAsyncQueue() {
        super(DelayedCompletion::viaQueue);
    }
}
