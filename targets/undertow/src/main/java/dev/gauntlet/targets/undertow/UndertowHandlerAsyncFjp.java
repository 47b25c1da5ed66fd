package dev.gauntlet.targets.undertow;

import dev.gauntlet.targets.DelayedCompletion;

/**
 * {@code undertow-handler-async-fjp}: the exchange is dispatched to {@code SameThreadExecutor},
 * which only keeps it open after the handler returns, and stored in
 * {@link DelayedCompletion#viaForkJoinPool()}; the completion thread sends the response with the
 * exchange's non-blocking sender.
 */
public final class UndertowHandlerAsyncFjp extends DelayedUndertowHandler {
    public UndertowHandlerAsyncFjp() {
        super(DelayedCompletion::viaForkJoinPool);
    }
}
