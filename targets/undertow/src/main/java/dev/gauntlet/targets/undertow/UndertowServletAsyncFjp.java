package dev.gauntlet.targets.undertow;

import dev.gauntlet.targets.DelayedCompletion;

/**
 * {@code undertow-servlet-async-fjp}: the servlet starts async mode and stores the request in
 * {@link DelayedCompletion#viaForkJoinPool()}; the completion thread writes the response and calls
 * {@code AsyncContext.complete()}.
 */
public final class UndertowServletAsyncFjp extends DelayedUndertowServlet {
    public UndertowServletAsyncFjp() {
        super(DelayedCompletion::viaForkJoinPool);
    }
}
