package dev.gauntlet.targets.undertow;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.servlet.HelloServlet;
import io.undertow.servlet.Servlets;
import io.undertow.servlet.api.DeploymentInfo;
import io.undertow.servlet.api.DeploymentManager;
import io.undertow.servlet.util.ImmediateInstanceFactory;
import jakarta.servlet.ServletException;

import java.security.GeneralSecurityException;
import java.util.concurrent.Executor;

/**
 * {@link HelloServlet} deployed in Undertow's servlet container on an {@link UndertowServer}. The
 * container runs each request on the XNIO worker pool, or on the given executor when there is one
 * (which then also runs {@code AsyncContext.start} tasks).
 */
final class UndertowServletServer {
    private final UndertowServer server = new UndertowServer();
    private DeploymentManager deployment;

    int start(TargetSettings settings, UndertowServer.Threads threads, Executor executor, HelloServlet servlet)
            throws ServletException, GeneralSecurityException {
        DeploymentInfo info = Servlets.deployment()
                .setClassLoader(UndertowServletServer.class.getClassLoader())
                .setContextPath("/")
                .setDeploymentName("gauntlet")
                .addServlet(Servlets.servlet("hello", HelloServlet.class, new ImmediateInstanceFactory<>(servlet))
                        .addMapping(HelloContract.PATH)
                        .setAsyncSupported(true));
        if (executor != null) {
            info.setExecutor(executor).setAsyncExecutor(executor);
        }
        deployment = Servlets.defaultContainer().addDeployment(info);
        deployment.deploy();
        return server.start(settings, threads, deployment.start());
    }

    void stop() throws ServletException {
        server.stop();
        if (deployment != null) {
            deployment.stop();
            deployment.undeploy();
        }
    }
}
