package dev.gauntlet.loadgen.transport;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.TlsTrust;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;
import dev.gauntlet.loadgen.engine.TlsClient;
import dev.gauntlet.loadgen.failure.GeneratorException;
import dev.gauntlet.loadgen.http3.Http3Calls;
import dev.gauntlet.loadgen.http3.QuicFailures;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * Where the load goes: the spec's target resolved, and checked to answer — and to speak the load's protocol — before
 * anything starts, so that a wrong port, a server without TLS (or with it, for http://), a certificate not trusted or a
 * server without HTTP/2 is one clear line rather than a run of failed requests.
 */
public final class TargetAddress {
    /** The HTTP/2 connection preface and an empty SETTINGS frame: what h2c with prior knowledge opens with. */
    private static final byte[] H2C_OPENING = ("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EMPTY_SETTINGS = {0, 0, 0, 0x4, 0, 0, 0, 0, 0};
    private static final int SETTINGS_TYPE = 0x4;
    /** TLS records of an alert or a handshake, and the first byte of their version (3 for SSL 3.0 up to TLS 1.3). */
    private static final int ALERT_RECORD = 0x15;
    private static final int HANDSHAKE_RECORD = 0x16;
    private static final int TLS_MAJOR_VERSION = 0x03;

    private TargetAddress() {
    }

    /** The spec's host and port (80, or 443 for https, when the URL names none), resolved. */
    public static InetSocketAddress resolve(LoadSpec spec) {
        int port = spec.url().getPort() < 0 ? (spec.tls() ? 443 : 80) : spec.url().getPort();
        InetSocketAddress address = new InetSocketAddress(spec.url().getHost(), port);
        if (address.isUnresolved()) {
            throw new GeneratorException("unknown host " + spec.url().getHost());
        }
        return address;
    }

    /**
     * One blocking connect first, then the TLS handshake, the HTTP/2 preface or a plain HTTP/1.1 request; for HTTP/3,
     * one QUIC handshake.
     */
    public static void checkReachable(LoadSpec spec, InetSocketAddress address) {
        if (spec.http3()) {
            checkQuic(spec, address);
            return;
        }
        int timeoutMs = (int) Math.min(spec.connectTimeoutMs(), Integer.MAX_VALUE);
        try (Socket socket = new Socket()) {
            socket.connect(address, timeoutMs);
            socket.setSoTimeout(timeoutMs);
            if (spec.tls()) {
                checkTls(spec, address, socket);
            } else if (spec.http2()) {
                checkPriorKnowledge(address, socket);
            } else {
                checkNotTls(spec, address, socket);
            }
        } catch (ConnectException e) {
            throw new GeneratorException("nothing listens on " + hostPort(address));
        } catch (SocketTimeoutException e) {
            throw new GeneratorException("no answer from " + hostPort(address) + " within " + timeoutMs + " ms");
        } catch (IOException e) {
            throw new GeneratorException("cannot connect to " + hostPort(address) + ": " + e.getMessage());
        }
    }

    /**
     * One QUIC handshake with h3 offered: no answer within the connect timeout (nothing serves QUIC on that UDP port, or
     * it is blocked), the certificate refused, or no HTTP/3 in the server's ALPN, each as what to do about it.
     */
    private static void checkQuic(LoadSpec spec, InetSocketAddress address) {
        Throwable failure;
        try (Http3Calls quic = new Http3Calls(new ClientSettings(spec.url(), spec.connectTimeoutMs(),
                spec.responseTimeoutMs(), 1, ClientResponse.Version.HTTP_3, spec.trust()), 1, true)) {
            failure = quic.handshake();
        } catch (IllegalArgumentException e) {
            throw new GeneratorException(e.getMessage());
        } catch (Exception e) {
            throw new GeneratorException("cannot start a QUIC handshake with udp " + hostPort(address) + ": " + e);
        }
        if (failure == null) {
            return;
        }
        String problem = failure.getMessage();
        ErrorClass errorClass = ClientFailure.classify(failure);
        throw new GeneratorException(switch (errorClass) {
            case CONNECT_TIMEOUT -> "no QUIC answer from udp " + hostPort(address) + " within " + spec.connectTimeoutMs()
                    + " ms: nothing serves HTTP/3 there, or UDP is blocked; start the target with --tls --http3 (where "
                    + "it serves h3: ./gauntlet targets), or drop --http3";
            case TLS -> QuicFailures.noHttp3(failure)
                    ? "udp " + hostPort(address) + " speaks QUIC but not HTTP/3 (no h3 in its ALPN): " + problem
                    + "; point --http3 at a server of h3, or drop it"
                    : "the QUIC handshake with udp " + hostPort(address) + " failed on TLS (" + problem + "): give the "
                    + "certificate to trust with --cacert FILE, or --insecure";
            default -> "the QUIC handshake with udp " + hostPort(address) + " failed: " + problem;
        });
    }

    private static void checkTls(LoadSpec spec, InetSocketAddress address, Socket plain) throws IOException {
        TlsClient tls;
        try {
            tls = TlsClient.of(spec.trust(), spec.url().getHost(), address.getPort(), spec.http2());
        } catch (IllegalArgumentException e) {
            throw new GeneratorException(e.getMessage());
        }
        try (SSLSocket socket = (SSLSocket) tls.context().getSocketFactory()
                .createSocket(plain, spec.url().getHost(), address.getPort(), false)) {
            SSLParameters parameters = socket.getSSLParameters();
            if (tls.checksHostName()) {
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
            }
            parameters.setApplicationProtocols(new String[]{tls.applicationProtocol()});
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            if (spec.http2() && !"h2".equals(socket.getApplicationProtocol())) {
                throw new GeneratorException(hostPort(address) + " does not speak HTTP/2 over TLS (ALPN chose "
                        + describe(socket.getApplicationProtocol()) + "): drop --http2, or start the target with HTTP/2");
            }
        } catch (SocketTimeoutException e) {
            throw new GeneratorException(hostPort(address) + " took the connection but did not answer the TLS handshake within "
                    + plain.getSoTimeout() + " ms: it does not speak TLS, it seems; use http://, or start the target with TLS");
        } catch (SSLHandshakeException e) {
            throw new GeneratorException(handshakeProblem(address, spec, e));
        } catch (SSLException e) {
            throw new GeneratorException(hostPort(address) + " does not speak TLS (" + e.getMessage()
                    + "): use http://, or start the target with TLS");
        }
    }

    /** The handshake's failure as what to do about it: the certificate expired, is for another host, or is not trusted. */
    private static String handshakeProblem(InetSocketAddress address, LoadSpec spec, SSLHandshakeException e) {
        String remedy = "; give the certificate to trust with --cacert FILE, or --insecure";
        // The dates first, through every cause: the outer exceptions of an expired certificate say "PKIX path" too.
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof CertificateExpiredException || cause instanceof CertificateNotYetValidException
                    || (cause instanceof CertPathValidatorException path
                    && path.getReason() == CertPathValidatorException.BasicReason.EXPIRED)) {
                return "the certificate of " + hostPort(address) + " is out of its validity (" + cause.getMessage()
                        + "): renew it, or --insecure";
            }
        }
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            String message = String.valueOf(cause.getMessage());
            if (message.startsWith("No subject alternative") || message.startsWith("No name matching")) {
                return "the certificate of " + hostPort(address) + " is not for " + spec.url().getHost() + " (" + message
                        + "): use a host name it names" + remedy;
            }
            if (message.contains("PKIX path")) {
                return "the certificate of " + hostPort(address) + " is not trusted (" + lastCause(e).getMessage() + ")" + remedy;
            }
        }
        return "the TLS handshake with " + hostPort(address) + " failed: " + e.getMessage() + remedy;
    }

    private static Throwable lastCause(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** The preface and empty settings; a server of HTTP/2 answers with its SETTINGS, one of HTTP/1.1 with an error or a close. */
    private static void checkPriorKnowledge(InetSocketAddress address, Socket socket) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(H2C_OPENING);
        out.write(EMPTY_SETTINGS);
        out.flush();
        InputStream in = socket.getInputStream();
        byte[] head = in.readNBytes(9);
        if (head.length == 9 && (head[3] & 0xff) == SETTINGS_TYPE) {
            return;
        }
        String answer = new String(head, StandardCharsets.US_ASCII);
        throw new GeneratorException(hostPort(address) + " does not speak HTTP/2 in clear (h2c with prior knowledge): it "
                + (head.length == 0 ? "closed the connection" : answer.startsWith("HTTP/1") ? "answered HTTP/1.1"
                : "answered something else") + " to the HTTP/2 preface; drop --http2, use https:// for h2 over TLS, or "
                + "start the target with HTTP/2");
    }

    /**
     * A plain request no handler sees ({@code OPTIONS *}, the server's own): a server of HTTP answers it at once. One of
     * TLS answers its first bytes with an alert (the JDK's) or closes the connection (Netty's); a close is taken for
     * TLS only when a handshake on a second connection gets a server's answer. A slow or other answer is left to the
     * run to count.
     */
    private static void checkNotTls(LoadSpec spec, InetSocketAddress address, Socket socket) throws IOException {
        byte[] head;
        try {
            OutputStream out = socket.getOutputStream();
            out.write(("OPTIONS * HTTP/1.1\r\nHost: " + spec.url().getRawAuthority() + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            head = socket.getInputStream().readNBytes(3);
        } catch (SocketTimeoutException e) {
            return;
        } catch (SocketException e) {
            // Reset, or closed before the request was written: as a close.
            head = new byte[0];
        }
        boolean tlsRecord = head.length == 3 && (head[0] == ALERT_RECORD || head[0] == HANDSHAKE_RECORD)
                && head[1] == TLS_MAJOR_VERSION;
        if (tlsRecord || (head.length == 0 && handshakes(spec, address, socket.getSoTimeout()))) {
            throw new GeneratorException(hostPort(address) + " speaks TLS, not plain HTTP: use https"
                    + spec.url().toString().substring("http".length()) + " (with --cacert FILE, or --insecure, for a "
                    + "certificate the JDK does not trust)");
        }
    }

    /** Whether {@code address} completes a TLS handshake, any certificate accepted: it speaks TLS. */
    private static boolean handshakes(LoadSpec spec, InetSocketAddress address, int timeoutMs) {
        SSLContext anyCertificate = TlsClient.of(new TlsTrust(null, true), spec.url().getHost(), address.getPort(), false)
                .context();
        try (Socket plain = new Socket()) {
            plain.connect(address, timeoutMs);
            plain.setSoTimeout(timeoutMs);
            try (SSLSocket socket = (SSLSocket) anyCertificate.getSocketFactory()
                    .createSocket(plain, spec.url().getHost(), address.getPort(), false)) {
                socket.startHandshake();
                return true;
            }
        } catch (IOException e) {
            return false;
        }
    }

    private static String describe(String alpn) {
        return alpn == null || alpn.isEmpty() ? "nothing, so HTTP/1.1" : alpn;
    }

    private static String hostPort(InetSocketAddress address) {
        return address.getHostString() + ":" + address.getPort();
    }
}
