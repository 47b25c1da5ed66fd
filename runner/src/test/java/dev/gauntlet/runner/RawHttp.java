package dev.gauntlet.runner;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A deliberately literal HTTP/1.1 client for black-box tests: it writes the bytes it is given and
 * returns the response exactly as received, so a test can assert on every header a server sends.
 */
public final class RawHttp {
    private static final int TIMEOUT_MS = 10_000;

    private RawHttp() {
    }

    public record Response(String statusLine, List<String> headerLines, byte[] body) {
        public int status() {
            return Integer.parseInt(statusLine.split(" ")[1]);
        }

        public String bodyText() {
            return new String(body, StandardCharsets.US_ASCII);
        }

        /** Header names in lower case, in the order sent. */
        public List<String> headerNames() {
            return headerLines.stream().map(h -> h.substring(0, h.indexOf(':')).trim().toLowerCase(Locale.ROOT)).toList();
        }

        public String header(String name) {
            for (String h : headerLines) {
                int colon = h.indexOf(':');
                if (h.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    return h.substring(colon + 1).trim();
                }
            }
            return null;
        }
    }

    public static Response get(String host, int port, String pathAndQuery) throws IOException {
        return exchange(host, port, "GET " + pathAndQuery + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n\r\n");
    }

    /** Sends {@code request} as is on a new connection and reads one response. */
    public static Response exchange(String host, int port, String request) throws IOException {
        try (Socket socket = connect(host, port)) {
            return exchange(socket, request);
        }
    }

    /** A connection to send on later, so that a test can connect first and send many requests at once. */
    public static Socket connect(String host, int port) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(host, port), TIMEOUT_MS);
        socket.setSoTimeout(TIMEOUT_MS);
        return socket;
    }

    /** Sends {@code request} as is on an open connection and reads one response. */
    public static Response exchange(Socket socket, String request) throws IOException {
        socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        return read(socket.getInputStream());
    }

    /**
     * Sends {@code request} and reports how the server reacted: the response's status, or -1 when
     * it closed (or reset) the connection without one.
     */
    public static int statusOrClosed(String host, int port, String request) throws IOException {
        try (Socket socket = connect(host, port)) {
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            socket.shutdownOutput();
            return read(socket.getInputStream()).status();
        } catch (java.io.EOFException | java.net.SocketException e) {
            return -1;
        }
    }

    private static Response read(InputStream in) throws IOException {
        String statusLine = line(in);
        List<String> headers = new ArrayList<>();
        for (String line; !(line = line(in)).isEmpty(); ) {
            headers.add(line);
        }
        Response head = new Response(statusLine, headers, new byte[0]);
        String length = head.header("Content-Length");
        byte[] body = length != null ? in.readNBytes(Integer.parseInt(length)) : readChunked(head, in);
        return new Response(statusLine, headers, body);
    }

    private static byte[] readChunked(Response head, InputStream in) throws IOException {
        if (!"chunked".equalsIgnoreCase(head.header("Transfer-Encoding"))) {
            return new byte[0];
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (int size; (size = Integer.parseInt(line(in).trim(), 16)) > 0; ) {
            body.write(in.readNBytes(size));
            line(in);
        }
        line(in);
        return body.toByteArray();
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b; (b = in.read()) != '\n'; ) {
            if (b < 0) {
                throw new java.io.EOFException("connection closed after: " + line);
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }
}
