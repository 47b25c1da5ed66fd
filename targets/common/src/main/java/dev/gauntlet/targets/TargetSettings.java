package dev.gauntlet.targets;

import dev.gauntlet.api.Protocol;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The knobs every target takes from its command line, with the old server benchmark's defaults.
 * The values in force are served on the admin port ({@code GET /settings}) and recorded with
 * every result.
 *
 * @param adminBind    the admin port's address: loopback unless told otherwise, whatever {@code bind} is, so that
 *                     a target serving a routable address does not offer its admin port there too
 * @param workers      platform worker threads at most, for the blocking styles (sync, async-dispatch)
 * @param ioThreads    selector / event-loop / acceptor threads
 * @param asyncThreads worker threads at most for the non-blocking styles (async-fjp, async-queue, async-timer)
 * @param backlog      the listen socket's accept queue
 * @param tls          the data port serves TLS with this key and certificate; null: cleartext
 * @param http2        the data port serves HTTP/2 as well as HTTP/1.1: over TLS negotiated by ALPN ({@code h2}, then
 *                     {@code http/1.1}), in clear with prior knowledge ({@code h2c})
 * @param http3        HTTP/3 over QUIC on UDP as well, on the data port's number, with its certificate (TLS is required)
 */
public record TargetSettings(
        String bind,
        String adminBind,
        int port,
        int adminPort,
        int workers,
        int ioThreads,
        int asyncThreads,
        int backlog,
        boolean tcpNoDelay,
        boolean reuseAddress,
        TargetTls tls,
        boolean http2,
        boolean http3) {

    public static final int DEFAULT_WORKERS = 10_000;
    public static final int DEFAULT_ASYNC_THREADS = 100;
    public static final int DEFAULT_BACKLOG = 10_000;

    public static TargetSettings defaults() {
        return new TargetSettings("127.0.0.1", "127.0.0.1", 0, 0, DEFAULT_WORKERS,
                Runtime.getRuntime().availableProcessors(), DEFAULT_ASYNC_THREADS, DEFAULT_BACKLOG,
                true, true, null, false, false);
    }

    /** What the data port speaks when a client asks for the most it offers (HTTP/3 on its UDP twin). */
    public Protocol protocol() {
        return Protocol.of(tls != null, http2, http3);
    }

    /** The settings as the admin endpoint's JSON, names as on the command line. */
    public String toJson() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("bind", "\"" + bind + "\"");
        values.put("adminBind", "\"" + adminBind + "\"");
        values.put("port", port);
        values.put("adminPort", adminPort);
        values.put("workers", workers);
        values.put("ioThreads", ioThreads);
        values.put("asyncThreads", asyncThreads);
        values.put("backlog", backlog);
        values.put("tcpNoDelay", tcpNoDelay);
        values.put("reuseAddress", reuseAddress);
        values.put("tls", tls == null ? "null" : "\"" + tls.describe().replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
        values.put("http2", http2);
        values.put("http3", http3);
        StringBuilder json = new StringBuilder("{");
        values.forEach((k, v) -> json.append(json.length() > 1 ? "," : "").append('"').append(k).append("\":").append(v));
        return json.append('}').toString();
    }

    TargetSettings withTls(TargetTls given) {
        return new TargetSettings(bind, adminBind, port, adminPort, workers, ioThreads, asyncThreads, backlog,
                tcpNoDelay, reuseAddress, given, http2, http3);
    }

    /** These settings for another port (chosen by the system) speaking {@code protocol}, with {@code tls} when it is TLS. */
    TargetSettings forAnotherPort(Protocol protocol, TargetTls given) {
        return new TargetSettings(bind, adminBind, 0, adminPort, workers, ioThreads, asyncThreads, backlog,
                tcpNoDelay, reuseAddress, protocol.tls() ? given : null, protocol.http2(), protocol.http3());
    }

    TargetSettings withPorts(int port, int adminPort) {
        return new TargetSettings(bind, adminBind, port, adminPort, workers, ioThreads, asyncThreads, backlog,
                tcpNoDelay, reuseAddress, tls, http2, http3);
    }
}
