package dev.gauntlet.targets.tomcat;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.TargetTls;
import dev.gauntlet.targets.servlet.HelloServlet;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.coyote.http2.Http2Protocol;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.apache.tomcat.util.net.jsse.JSSEImplementation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Embedded Tomcat with one NIO connector and {@link HelloServlet} mapped to {@code /hello}; the
 * styles differ in the servlet's wait and the connector's executor.
 *
 * <p>The connector's executor runs every request: up to {@code maxThreads} platform threads
 * ({@code workers} for the styles that hold a thread for the wait, {@code asyncThreads} for the
 * others) or, with {@code useVirtualThreads}, a virtual thread per request. One acceptor and one
 * poller thread do the I/O, so {@code ioThreads} is not used.
 *
 * <p>The connector speaks HTTP/1.1, with {@code --tls} over the JDK's TLS (JSSE), and with {@code --http2} HTTP/2
 * beside it on the same port; the servlet serves HTTP/2 streams unchanged, each on the same executor.
 * {@link TomcatTargets} makes one per style.
 */
final class TomcatServer implements HelloServer {    /** Above the process's open-files limit (20,000 here), so the connector never refuses first. */
    private static final int MAX_CONNECTIONS = 100_000;

    /** Which executor runs the requests. */
    enum Threads {
        /** A platform worker is held for the whole wait: up to {@code workers}. */
        BLOCKING,
        /** No platform thread is held while waiting: up to {@code asyncThreads}. */
        ASYNC,
        /** Tomcat's virtual-thread executor: a new virtual thread per request. */
        VIRTUAL
    }

    private final Threads threads;
    private final Function<RequestStats, HelloServlet> servlet;
    private Tomcat tomcat;
    private Path baseDir;

    TomcatServer(Threads threads, Function<RequestStats, HelloServlet> servlet) {
        this.threads = threads;
        this.servlet = servlet;
    }

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws IOException, LifecycleException {
        baseDir = Files.createTempDirectory("gauntlet-tomcat");
        tomcat = new Tomcat();
        tomcat.setBaseDir(baseDir.toString());

        Http11NioProtocol protocol = new Http11NioProtocol();
        Connector connector = new Connector(protocol);
        connector.setPort(settings.port());
        protocol.setAddress(InetAddress.getByName(settings.bind()));
        protocol.setMaxThreads(threads == Threads.BLOCKING ? settings.workers() : settings.asyncThreads());
        protocol.setAcceptCount(settings.backlog());
        protocol.setMaxConnections(MAX_CONNECTIONS);
        protocol.setTcpNoDelay(settings.tcpNoDelay());
        // Tomcat closes a keep-alive connection after 100 requests by default; the other servers never do.
        protocol.setMaxKeepAliveRequests(-1);
        // A client that asks for keep-alive gets "Connection: keep-alive" but not Tomcat's extra "Keep-Alive: timeout=60".
        protocol.setUseKeepAliveResponseHeader(false);
        // Endpoint settings without a setter on the protocol; the connector passes them through.
        setProperty(connector, "useVirtualThreads", threads == Threads.VIRTUAL);
        setProperty(connector, "socket.soReuseAddress", settings.reuseAddress());
        if (settings.tls() != null) {
            protocol.setSSLEnabled(true);
            // Pinned: the catalogue says JSSE, and Tomcat would take OpenSSL wherever a listener had loaded it.
            protocol.setSslImplementationName(JSSEImplementation.class.getName());
            protocol.addSslHostConfig(sslHostConfig(settings.tls()));
            connector.setScheme("https");
            connector.setSecure(true);
        }
        if (settings.http2()) {
            connector.addUpgradeProtocol(http2());
        }
        tomcat.getService().addConnector(connector);
        tomcat.setConnector(connector);

        Context context = tomcat.addContext("", null);
        Tomcat.addServlet(context, "hello", servlet.apply(stats)).setAsyncSupported(true);
        context.addServletMappingDecoded(HelloContract.PATH, "hello");
        tomcat.start();
        return connector.getLocalPort();
    }

    /** The key and certificate for every host name the client may ask for. */
    private static SSLHostConfig sslHostConfig(TargetTls tls) {
        SSLHostConfig config = new SSLHostConfig();
        SSLHostConfigCertificate certificate = new SSLHostConfigCertificate(config, SSLHostConfigCertificate.Type.UNDEFINED);
        certificate.setCertificateKeystore(tls.keyStore());
        certificate.setCertificateKeystorePassword(new String(tls.password()));
        config.addCertificate(certificate);
        return config;
    }

    /**
     * HTTP/2 for the connections whose ALPN chose h2 and for the cleartext ones that open with the HTTP/2 preface.
     * Every stream a connection may open runs at once, as on the other servers: by default Tomcat runs 20 of its 100
     * and queues the rest, which would cap a multiplexing client's concurrency below the style's.
     */
    private static Http2Protocol http2() {
        Http2Protocol http2 = new Http2Protocol();
        http2.setMaxConcurrentStreamExecution(Math.toIntExact(http2.getMaxConcurrentStreams()));
        return http2;
    }

    @Override
    public void stop() throws LifecycleException, IOException {
        if (tomcat != null) {
            tomcat.stop();
            tomcat.destroy();
        }
        if (baseDir != null) {
            try (Stream<Path> files = Files.walk(baseDir)) {
                files.sorted(Comparator.reverseOrder()).forEach(TomcatServer::delete);
            }
        }
    }

    private static void setProperty(Connector connector, String name, boolean value) {
        if (!connector.setProperty(name, String.valueOf(value))) {
            throw new IllegalStateException("Tomcat connector has no property " + name);
        }
    }

    private static void delete(Path path) {
        try {
            Files.delete(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
