package dev.gauntlet.targets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TargetTlsTest {
    @TempDir
    Path dir;

    @Test
    void aClientTrustingThePemFileCompletesAHandshakeThatChecksTheHostName() throws Exception {
        TargetTls tls = TargetTls.selfSigned("127.0.0.1");
        Path pem = dir.resolve("target.pem");
        tls.writeCertificatePem(pem);

        X509Certificate served = tls.certificateChain()[0];
        assertThat(served.getNotBefore().toInstant()).isBefore(Instant.now());
        assertThat(served.getNotAfter().toInstant()).isAfter(Instant.now().plus(TargetTls.SELF_SIGNED_VALIDITY).minusSeconds(60));

        try (SSLServerSocket server = (SSLServerSocket) tls.sslContext().getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Integer> accepted = CompletableFuture.supplyAsync(() -> {
                try (SSLSocket socket = (SSLSocket) server.accept()) {
                    return socket.getInputStream().read();
                } catch (Exception e) {
                    return -2;
                }
            });
            try (SSLSocket client = (SSLSocket) trusting(pem).getSocketFactory().createSocket("127.0.0.1", server.getLocalPort())) {
                SSLParameters parameters = client.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                client.setSSLParameters(parameters);
                client.getOutputStream().write(7);
                client.getOutputStream().flush();
            }
            assertThat(accepted.get()).isEqualTo(7);
        }
    }

    @Test
    void aClientTrustingAnotherCertificateRefusesIt() throws Exception {
        TargetTls tls = TargetTls.selfSigned("127.0.0.1");
        Path other = dir.resolve("other.pem");
        TargetTls.selfSigned("127.0.0.1").writeCertificatePem(other);
        try (SSLServerSocket server = (SSLServerSocket) tls.sslContext().getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture.runAsync(() -> {
                try (SSLSocket socket = (SSLSocket) server.accept()) {
                    socket.startHandshake();
                } catch (Exception ignored) {
                    // the client refuses
                }
            });
            try (SSLSocket client = (SSLSocket) trusting(other).getSocketFactory().createSocket("127.0.0.1", server.getLocalPort())) {
                assertThatThrownBy(client::startHandshake).isInstanceOf(SSLHandshakeException.class);
            }
        }
    }

    @Test
    void aKeyStoreFileServesTheSameKey() throws Exception {
        TargetTls tls = TargetTls.selfSigned("localhost");
        Path file = tls.keyStoreFile();
        assertThat(Files.getPosixFilePermissions(file)).hasSize(2);
        TargetTls read = TargetTls.fromKeyStore(file);
        assertThat(read.certificateChain()[0]).isEqualTo(tls.certificateChain()[0]);
        assertThat(read.source()).isEqualTo(file.toString());
    }

    private static SSLContext trusting(Path pem) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(pem)) {
            trust.setCertificateEntry("target", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }
}
