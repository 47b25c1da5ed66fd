package dev.gauntlet.loadgen;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.loadgen.engine.ClientFailure;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLHandshakeException;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.ProtocolException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.security.cert.CertificateExpiredException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

class ClientFailureTest {

    @Test
    void theFirstCauseThatSaysDecidesThroughWrappers() {
        assertThat(ClientFailure.classify(new ExecutionException(new ConnectException("Connection refused"))))
                .isEqualTo(ErrorClass.REFUSED);
        assertThat(ClientFailure.classify(new CompletionException(new HttpConnectTimeoutException("HTTP connect timed out"))))
                .isEqualTo(ErrorClass.CONNECT_TIMEOUT);
        assertThat(ClientFailure.classify(new UncheckedIOException(new HttpTimeoutException("request timed out"))))
                .isEqualTo(ErrorClass.RESPONSE_TIMEOUT);
    }

    @Test
    void timeoutsAreTheConnectsWhenTheySaySo() {
        assertThat(ClientFailure.classify(new SocketTimeoutException("Connect timed out"))).isEqualTo(ErrorClass.CONNECT_TIMEOUT);
        assertThat(ClientFailure.classify(new SocketTimeoutException("Read timed out"))).isEqualTo(ErrorClass.RESPONSE_TIMEOUT);
        assertThat(ClientFailure.classify(new TimeoutException())).isEqualTo(ErrorClass.RESPONSE_TIMEOUT);
        assertThat(ClientFailure.classify(new ConnectException("connection timed out: /127.0.0.1:1")))
                .isEqualTo(ErrorClass.CONNECT_TIMEOUT);
    }

    @Test
    void aHandshakeOrCertificateFailureIsTls() {
        assertThat(ClientFailure.classify(new CompletionException(new SSLHandshakeException("PKIX path building failed"))))
                .isEqualTo(ErrorClass.TLS);
        assertThat(ClientFailure.classify(new IOException("handshake", new CertificateExpiredException("expired"))))
                .isEqualTo(ErrorClass.TLS);
    }

    @Test
    void otherIoFailuresAreResetsAndTheRestIsTheLibrarys() {
        assertThat(ClientFailure.classify(new SocketException("Connection reset"))).isEqualTo(ErrorClass.RESET);
        assertThat(ClientFailure.classify(new EOFException())).isEqualTo(ErrorClass.RESET);
        assertThat(ClientFailure.classify(new RuntimeException(new IOException("closed")))).isEqualTo(ErrorClass.RESET);
        assertThat(ClientFailure.classify(new ProtocolException("bad status line"))).isEqualTo(ErrorClass.PROTOCOL);
        assertThat(ClientFailure.classify(new IllegalStateException("pool exhausted"))).isEqualTo(ErrorClass.CLIENT);
    }

    @Test
    void anEngineThatKnowsBetterSaysSo() {
        ClientFailure known = new ClientFailure(ErrorClass.PROTOCOL, "malformed chunk", new IOException("x"));

        assertThat(ClientFailure.classify(new ExecutionException(known))).isEqualTo(ErrorClass.PROTOCOL);
    }
}
