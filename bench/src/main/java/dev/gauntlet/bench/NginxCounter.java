package dev.gauntlet.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * The requests an nginx has served so far, from its {@code stub_status} page: one counter for every client the gate
 * alternates, so each client's requests are counted the same way, by the server that answered them. Read over a plain
 * socket, so reading costs the gate's own JVM (which hosts Gauntlet's generator) next to nothing.
 */
final class NginxCounter {
    private final URI statusUrl;

    NginxCounter(URI statusUrl) {
        this.statusUrl = statusUrl;
    }

    long requests() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(statusUrl.getHost(), statusUrl.getPort()), 2_000);
            socket.setSoTimeout(2_000);
            socket.getOutputStream().write(("GET " + statusUrl.getRawPath() + " HTTP/1.0\r\nHost: " + statusUrl.getHost()
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            try (InputStream in = socket.getInputStream()) {
                return requestsIn(new String(in.readAllBytes(), StandardCharsets.US_ASCII));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("nginx's status page " + statusUrl + " did not answer: " + e.getMessage(), e);
        }
    }

    /**
     * The third number below "server accepts handled requests" in a {@code stub_status} response:
     * <pre>
     * Active connections: 101
     * server accepts handled requests
     *  2031 2031 915422
     * </pre>
     */
    static long requestsIn(String response) {
        String[] lines = response.split("\r?\n");
        for (int i = 0; i + 1 < lines.length; i++) {
            if (lines[i].trim().equals("server accepts handled requests")) {
                String[] counts = lines[i + 1].trim().split("\\s+");
                if (counts.length == 3) {
                    return Long.parseLong(counts[2]);
                }
            }
        }
        throw new IllegalStateException("not an nginx stub_status page: " + response.lines().findFirst().orElse("(empty)"));
    }
}
