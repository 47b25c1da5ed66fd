package dev.gauntlet.loadgen.engine;

import dev.gauntlet.api.TlsTrust;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * The generator's side of TLS, made once per load: a JDK context trusting what {@link TlsTrust} says, and a client
 * {@link SSLEngine} per connection that checks the server's name (unless insecure) and offers, by ALPN, the one
 * protocol the load speaks.
 */
public final class TlsClient {
    private final SSLContext context;
    private final boolean checkHostName;
    private final String host;
    private final int port;
    private final String[] alpn;
    private final String[] cipherSuites;

    private TlsClient(SSLContext context, boolean checkHostName, String host, int port, String alpn) {
        this.context = context;
        this.cipherSuites = browserOrder(context.getDefaultSSLParameters().getCipherSuites());
        this.checkHostName = checkHostName;
        this.host = host;
        this.port = port;
        this.alpn = new String[]{alpn};
    }

    /**
     * A client for {@code host:port} speaking HTTP/2 or HTTP/1.1; a certificate file that cannot be read is an
     * {@link IllegalArgumentException} naming it.
     */
    public static TlsClient of(TlsTrust trust, String host, int port, boolean http2) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[]{trustManager(trust)}, null);
            return new TlsClient(context, !trust.insecure(), host, port, http2 ? "h2" : "http/1.1");
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    /** A new client-mode engine for one connection. */
    public SSLEngine engine() {
        SSLEngine engine = context.createSSLEngine(host, port);
        engine.setUseClientMode(true);
        SSLParameters parameters = engine.getSSLParameters();
        if (checkHostName) {
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
        }
        parameters.setApplicationProtocols(alpn);
        parameters.setCipherSuites(cipherSuites);
        engine.setSSLParameters(parameters);
        return engine;
    }

    /**
     * The JDK's enabled suites with AES-128-GCM first: the order h2load (OpenSSL's default), curl and the browsers
     * offer, where the JDK's own puts AES-256-GCM first. The server picks from the client's order, so this is what a
     * server is measured on with the clients it has, and a comparison with h2load is on the same cipher.
     */
    private static String[] browserOrder(String[] enabled) {
        return Arrays.stream(enabled)
                .sorted(Comparator.comparingInt(suite -> suite.contains("_AES_128_GCM_") ? 0 : 1))
                .toArray(String[]::new);
    }

    /** The protocol offered by ALPN. */
    public String applicationProtocol() {
        return alpn[0];
    }

    /** A context for a blocking socket: the reachability check's handshake. */
    public SSLContext context() {
        return context;
    }

    /** Whether the server's certificate must name the host. */
    public boolean checksHostName() {
        return checkHostName;
    }

    /**
     * What {@code trust} accepts, as one trust manager: any certificate when insecure, else those of its CA file or the
     * JDK's; a certificate file that cannot be read is an {@link IllegalArgumentException} naming it.
     */
    public static X509TrustManager trustManager(TlsTrust trust) {
        if (trust.insecure()) {
            return new AnyCertificate();
        }
        try {
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            if (trust.caCertificate() == null) {
                factory.init((KeyStore) null);
            } else {
                factory.init(keyStoreOf(Path.of(trust.caCertificate())));
            }
            for (TrustManager manager : factory.getTrustManagers()) {
                if (manager instanceof X509TrustManager x509) {
                    return x509;
                }
            }
            throw new IllegalStateException("the JDK's trust manager factory made no X509TrustManager");
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    private static KeyStore keyStoreOf(Path pem) throws GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(pem)) {
            store.load(null, null);
            Collection<? extends Certificate> certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
            if (certificates.isEmpty()) {
                throw new IllegalArgumentException("--cacert " + pem + " holds no certificate (a PEM file is expected)");
            }
            int i = 0;
            for (Certificate certificate : certificates) {
                store.setCertificateEntry("trusted-" + i++, certificate);
            }
            return store;
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("--cacert " + pem + " does not exist");
        } catch (IOException | java.security.cert.CertificateException e) {
            throw new IllegalArgumentException("--cacert " + pem + " cannot be read as PEM certificates: " + e.getMessage());
        }
    }

    /** {@code --insecure}: h2load's and wrk's way, for a target whose certificate is beside the point. */
    private static final class AnyCertificate implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            // A client never checks itself.
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            // Any certificate: what --insecure asks for.
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
