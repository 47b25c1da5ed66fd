package dev.gauntlet.api;

import java.util.Arrays;
import java.util.Collection;
import java.util.stream.Collectors;

/**
 * What a target's data port speaks and a load asks for: HTTP/1.1 in clear or over TLS, HTTP/2 over TLS (negotiated by
 * ALPN) or in clear with prior knowledge (h2c: the client opens with the HTTP/2 preface, no upgrade), or HTTP/3 over
 * QUIC (h3: UDP on the port number of the target's TCP port, which serves HTTPS/1.1 with the same certificate). Names
 * as in the target catalogue and on command lines.
 */
public enum Protocol {
    HTTP1("http1", false, false, false),
    HTTPS1("https1", true, false, false),
    H2("h2", true, true, false),
    H2C("h2c", false, true, false),
    H3("h3", true, false, true);

    private final String label;
    private final boolean tls;
    private final boolean http2;
    private final boolean http3;

    Protocol(String label, boolean tls, boolean http2, boolean http3) {
        this.label = label;
        this.tls = tls;
        this.http2 = http2;
        this.http3 = http3;
    }

    @com.fasterxml.jackson.annotation.JsonValue
    public String label() {
        return label;
    }

    /** Whether the connection is TLS. */
    public boolean tls() {
        return tls;
    }

    /** Whether requests go as HTTP/2 streams. */
    public boolean http2() {
        return http2;
    }

    /** Whether requests go as HTTP/3 streams of QUIC connections, over UDP. */
    public boolean http3() {
        return http3;
    }

    /** Whether a connection carries many requests at once, each a stream of its own (h2load's {@code -m}). */
    public boolean multiplexed() {
        return http2 || http3;
    }

    /** The protocol of a TCP connection with or without TLS and HTTP/2. */
    public static Protocol of(boolean tls, boolean http2) {
        return tls ? (http2 ? H2 : HTTPS1) : (http2 ? H2C : HTTP1);
    }

    /** {@link #H3} when {@code http3}, else as {@link #of(boolean, boolean)}. */
    public static Protocol of(boolean tls, boolean http2, boolean http3) {
        return http3 ? H3 : of(tls, http2);
    }

    /** The protocols' labels, comma-separated, for a table or a message: {@code http1, https1, h2}. */
    public static String labels(Collection<Protocol> protocols) {
        return protocols.stream().map(Protocol::label).collect(Collectors.joining(", "));
    }

    /** By its label; an unknown one is an {@link IllegalArgumentException} naming the labels there are. */
    public static Protocol fromLabel(String label) {
        for (Protocol p : values()) {
            if (p.label.equals(label)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown protocol " + label + " (one of "
                + Arrays.stream(values()).map(Protocol::label).collect(Collectors.joining(", ")) + ")");
    }
}
