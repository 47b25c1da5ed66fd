package dev.gauntlet.targets.undertow;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.servlet.HelloServlet;
import io.undertow.servlet.Servlets;
import io.undertow.servlet.api.DeploymentInfo;
import io.undertow.servlet.api.DeploymentManager;
import io.undertow.servlet.util.ImmediateInstanceFactory;
import jakarta.servlet.ServletException;

import java.security.GeneralSecurityException;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * {@link HelloServlet} deployed in Undertow's servlet container on an {@link UndertowServer}: the servlet styles of
 * {@link UndertowTargets}. The container runs each request on the XNIO worker pool, or on the given executor when
 * there is one (which then also runs {@code AsyncContext.start} tasks).
 */
final class UndertowServletServer implements HelloServer {
    private final UndertowServer server = new UndertowServer();
    private final UndertowServer.Threads threads;
    private final Executor executor;
    private final Function<RequestStats, HelloServlet> servlet;
    private DeploymentManager deployment;

    /** @param executor what runs the requests instead of the XNIO worker pool; null: that pool */
    UndertowServletServer(UndertowServer.Threads threads, Executor executor, Function<RequestStats, HelloServlet> servlet) {
        this.threads = threads;
        this.executor = executor;
        this.servlet = servlet;
    }

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws ServletException, GeneralSecurityException {
        DeploymentInfo info = Servlets.deployment()
                .setClassLoader(UndertowServletServer.class.getClassLoader())
                .setContextPath("/")
                .setDeploymentName("gauntlet")
                .addServlet(Servlets.servlet("hello", HelloServlet.class, new ImmediateInstanceFactory<>(servlet.apply(stats)))
                        .addMapping(HelloContract.PATH)
                        .setAsyncSupported(true));
        if (executor != null) {
            info.setExecutor(executor).setAsyncExecutor(executor);
        }
        deployment = Servlets.defaultContainer().addDeployment(info);
        deployment.deploy();
        return server.start(settings, threads, deployment.start());
    }

    @Override
    public void stop() throws ServletException {
        server.stop();
        if (deployment != null) {
            deployment.stop();
            deployment.undeploy();
        }
    }
}
