package dev.gauntlet.runner.execution;

import dev.gauntlet.api.Protocol;
import dev.gauntlet.runner.isolation.RolePlacement;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clients that are not Gauntlet's, for checking a target's port black-box: curl (libcurl with nghttp2), one request a
 * call, h2load, many streams on one connection, and over HTTP/3 Python's aioquic ({@code src/test/python/h3_get.py}),
 * one request or many at once on one QUIC connection. Each trusts nothing but the target's certificate, the host name
 * verified.
 *
 * @param port        the port speaking the protocols asked of it
 * @param certificate the PEM of the certificate it serves TLS with; empty for cleartext
 */
record ForeignClients(int port, Optional<Path> certificate) {
    /** What curl saw: the status, the HTTP version ({@code 1.1}, {@code 2}) and the body. */
    record Answer(int status, String version, String body) {
    }

    /** {@code GET path} over {@code protocol} with curl. */
    Answer curl(String path, Protocol protocol) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("curl", "--silent", "--show-error", "--max-time", "10",
                "--write-out", "\n%{http_code} %{http_version}"));
        switch (protocol) {
            case HTTP1, HTTPS1 -> command.add("--http1.1");
            case H2 -> command.add("--http2");
            case H2C -> command.add("--http2-prior-knowledge");
            case H3 -> throw new IllegalArgumentException("curl here has no HTTP/3: use h3()");
        }
        certificate.ifPresent(pem -> command.addAll(List.of("--cacert", pem.toString())));
        command.add(url(path, protocol));
        String output = ExternalTool.run(command);
        int lastLine = output.lastIndexOf('\n');
        String[] statusAndVersion = output.substring(lastLine + 1).trim().split(" ");
        return new Answer(Integer.parseInt(statusAndVersion[0]), statusAndVersion[1], output.substring(0, lastLine));
    }

    /** What aioquic saw of one HTTP/3 response: the status, the ms from its send to its last byte, and the body. */
    record TimedAnswer(int status, long ms, String body) {
    }

    /**
     * On one HTTP/3 connection to the UDP port of {@link #port}'s number, with aioquic: each of {@code paths} in turn,
     * {@code streams} GETs of it at once; each answer, in the order sent (ALPN h3, so their version is 3).
     */
    List<TimedAnswer> h3(int streams, String... paths) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("python3", H3_CLIENT.toString(), "--host", RolePlacement.LOOPBACK,
                "--port", String.valueOf(port), "--cacert", certificate.orElseThrow().toString(),
                "--streams", String.valueOf(streams)));
        for (String path : paths) {
            command.addAll(List.of("--path", path));
        }
        return ExternalTool.run(command).lines().map(line -> {
            String[] statusMsBody = line.split(" ", 3);
            return new TimedAnswer(Integer.parseInt(statusMsBody[0]), Long.parseLong(statusMsBody[1]),
                    statusMsBody.length < 3 ? "" : statusMsBody[2]);
        }).toList();
    }

    /** {@code requests} requests of {@code path} at once on one HTTP/2 connection with h2load: its report. */
    String h2load(String path, Protocol protocol, int requests) throws IOException, InterruptedException {
        return ExternalTool.run(List.of("h2load", "-n", String.valueOf(requests), "-c", "1", "-m", String.valueOf(requests),
                url(path, protocol)));
    }

    private String url(String path, Protocol protocol) {
        return (protocol.tls() ? "https" : "http") + "://" + RolePlacement.LOOPBACK + ":" + port + path;
    }

    /** The HTTP/3 client, from the runner module's directory (the tests' working directory). */
    private static final Path H3_CLIENT = Path.of("src/test/python/h3_get.py");

    static {
        // The clients this drives: a missing one is a set-up failure, named, not a skipped check.
        for (String tool : List.of("curl", "h2load")) {
            assertThat(Stream.of(System.getenv("PATH").split(":")).anyMatch(dir -> Files.isExecutable(Path.of(dir, tool))))
                    .as("%s on the PATH (Debian: curl, nghttp2-client; .ci/run installs them)", tool).isTrue();
        }
        try {
            ExternalTool.run(List.of("python3", "-c", "import aioquic"));
        } catch (IOException | InterruptedException e) {
            throw new AssertionError("python3 with aioquic (pip install aioquic; .ci/run installs it): " + e, e);
        }
    }
}
