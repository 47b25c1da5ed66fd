package dev.gauntlet.runner.execution;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.AdminProtocol;
import dev.gauntlet.api.AdminToken;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.Protocol;
import dev.gauntlet.api.TlsTrust;
import dev.gauntlet.loadgen.engine.TlsClient;
import dev.gauntlet.runner.base.UserError;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * A running target as the network sees it: its serving port, its admin port ({@link AdminProtocol})
 * and the token its resets need — the same for a JVM on this machine and a pod on another node.
 *
 * <pre>{@code
 * TargetEndpoint endpoint = new TargetEndpoint("dummy", "127.0.0.1", port, adminPort, token);
 * endpoint.resetStats();
 * URI hello = endpoint.uri("/hello?wait=100");
 * }</pre>
 */
public final class TargetEndpoint {
    /** How long the liveness probe of the serving port may take to connect and answer, together. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);
    /** A run's window of a recording is a few MB; a slow network still brings it within this. */
    private static final Duration RECORDING_TIMEOUT = Duration.ofSeconds(60);

    /** The probe asks only whether the target answers: its certificate is the target's own, checked by the generator. */
    private static final TlsClient PROBE_TLS = TlsClient.of(new TlsTrust(null, true), "localhost", 0, false);

    private final String name;
    private final String host;
    private final int port;
    private final int adminPort;
    private final String adminToken;
    private final Protocol protocol;
    /** The PEM of the certificate it serves TLS with; null in clear. */
    private final Path certificate;
    private final HttpClient admin = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** @param name the target's catalogue name, for the errors */
    public TargetEndpoint(String name, String host, int port, int adminPort, String adminToken) {
        this(name, host, port, adminPort, adminToken, Protocol.HTTP1, null);
    }

    private TargetEndpoint(String name, String host, int port, int adminPort, String adminToken, Protocol protocol,
                           Path certificate) {
        this.name = name;
        this.host = host;
        this.port = port;
        this.adminPort = adminPort;
        this.adminToken = adminToken;
        this.protocol = protocol;
        this.certificate = certificate;
    }

    /** The same endpoint serving {@code protocol}, over TLS with the certificate in the PEM file {@code certificate}. */
    TargetEndpoint speaking(Protocol served, Path servedCertificate) {
        if (served.tls() && servedCertificate == null) {
            throw new UserError("target " + name + " serves " + served.label() + " but printed no TLS certificate line");
        }
        return new TargetEndpoint(name, host, port, adminPort, adminToken, served, servedCertificate);
    }

    public Protocol protocol() {
        return protocol;
    }

    /**
     * A suite's {@code spec} as it must be sent to this target: over HTTP/2 when it serves h2 or h2c, HTTP/3 when h3,
     * trusting its certificate alone when it serves TLS. A suite's connections are requests in flight whatever the
     * protocol, so that protocols compare at the same concurrency: over HTTP/2 and HTTP/3 they share connections, the
     * spec's streams to each (64 connections of 16 streams are 4 connections).
     */
    public LoadSpec speakingTo(LoadSpec spec) {
        LoadSpec.Builder speaking = spec.toBuilder().http2(protocol.http2(), spec.streams()).http3(protocol.http3())
                .trust(certificate == null ? TlsTrust.SYSTEM : new TlsTrust(certificate.toString(), false));
        long connections = spec.model().connectionsOpened(0);
        if (protocol.multiplexed() && spec.streams() > 1 && connections > 0 && !spec.model().holdsRequests()) {
            speaking.model(spec.model().withConnections((int) Math.ceilDiv(connections, spec.streams())));
        }
        return speaking.build();
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public URI uri(String pathAndQuery) {
        return URI.create((protocol.tls() ? "https" : "http") + "://" + host + ":" + port + pathAndQuery);
    }

    public URI adminUri(String path) {
        return URI.create("http://" + host + ":" + adminPort + path);
    }

    /** What a generator shows this target to reset its counts; for the generator's environment only. */
    public String adminToken() {
        return adminToken;
    }

    /**
     * Whether {@code GET /hello} on a new connection to the serving port answers 200 within
     * {@link #PROBE_TIMEOUT}; see {@link #probe(Duration)}.
     */
    public boolean answers() {
        return probe(PROBE_TIMEOUT).answered();
    }

    /**
     * What a probe of the serving port found.
     *
     * @param answered whether it answered 200
     * @param timedOut whether it gave no answer, or no connection, within the probe's time
     * @param tookMs   from the start of the connect to the status line, or to the failure
     */
    public record Probe(boolean answered, boolean timedOut, long tookMs) {
    }

    /**
     * {@code GET /hello} (no wait) on a new connection to the serving port, connected and answered
     * within {@code timeout} together. A new connection, not a pooled one: a server whose accept
     * loop has stopped (out of file descriptors, say) still answers on the connections it already
     * has, and the kernel still completes the handshake of a new one, so only its answer tells.
     */
    public Probe probe(Duration timeout) {
        long startNs = System.nanoTime();
        long deadlineNs = startNs + timeout.toNanos();
        try (Socket plain = new Socket()) {
            plain.connect(new InetSocketAddress(host, port), millisUntil(deadlineNs));
            plain.setSoTimeout(millisUntil(deadlineNs));
            // HTTP/1.1 whatever else it serves: an h2c target takes it beside the preface, an h2 one by ALPN's default.
            Socket socket = protocol.tls() ? PROBE_TLS.context().getSocketFactory().createSocket(plain, host, port, true) : plain;
            socket.getOutputStream().write(("GET /hello HTTP/1.1\r\nHost: " + host + ":" + port
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String statusLine = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
            return new Probe(statusLine != null && statusLine.matches("HTTP/1\\.[01] 200( .*)?"), false, millisSince(startNs));
        } catch (SocketTimeoutException e) {
            return new Probe(false, true, millisSince(startNs));
        } catch (IOException e) {
            return new Probe(false, false, millisSince(startNs));
        }
    }

    /** At least 1: a socket timeout of 0 would wait for ever. */
    private static int millisUntil(long deadlineNs) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime())));
    }

    private static long millisSince(long startNs) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
    }

    /** {@code GET /stats} on the admin port: the JSON the target serves. */
    public String stats() {
        return adminCall(HttpRequest.newBuilder(adminUri(AdminProtocol.STATS)).GET());
    }

    /** A number from a target's {@code /stats} JSON; null when it has no such field. */
    public static Long statsField(String statsJson, String field) {
        try {
            JsonNode value = Json.json().readTree(statsJson).get(field);
            return value == null || !value.canConvertToLong() ? null : value.asLong();
        } catch (IOException e) {
            return null;
        }
    }

    public String resetStats() {
        return adminCall(HttpRequest.newBuilder(adminUri(AdminProtocol.STATS_RESET))
                .header(AdminProtocol.TOKEN_HEADER, AdminToken.bearer(adminToken))
                .POST(HttpRequest.BodyPublishers.noBody()));
    }

    /** {@code GET /settings}: the settings in force, recorded with the results. */
    public String settings() {
        return adminCall(HttpRequest.newBuilder(adminUri(AdminProtocol.SETTINGS)).GET());
    }

    /**
     * Copies what the target's JFR recording holds between {@code from} and {@code to} into {@code file}, through
     * its admin port ({@link AdminProtocol#RECORDING}): for a target the runner cannot attach {@code jcmd} to.
     * Returns null when done, else why not, in one sentence.
     */
    public String copyRecording(Instant from, Instant to, Path file) {
        URI uri = adminUri(AdminProtocol.RECORDING + "?begin=" + from.toEpochMilli() + "&end=" + to.toEpochMilli());
        Path partial = file.resolveSibling(file.getFileName() + ".part");
        try {
            HttpResponse<Path> response = admin.send(HttpRequest.newBuilder(uri).timeout(RECORDING_TIMEOUT)
                    .header(AdminProtocol.TOKEN_HEADER, AdminToken.bearer(adminToken)).GET().build(),
                    HttpResponse.BodyHandlers.ofFile(partial));
            if (response.statusCode() != 200) {
                return "its admin port answered " + response.statusCode() + " to " + AdminProtocol.RECORDING + ": "
                        + Files.readString(partial).trim();
            }
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING);
            return null;
        } catch (IOException e) {
            return "its admin port did not send the recording: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while copying the target's recording";
        } finally {
            try {
                Files.deleteIfExists(partial);
            } catch (IOException e) {
                // Only a leftover part file: the result says whether the copy was made.
            }
        }
    }

    private String adminCall(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = admin.send(request.timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new UserError("target " + name + " admin answered " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new UserError("target " + name + " admin port " + adminPort + " does not answer: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while asking target " + name + " for its stats");
        }
    }
}
