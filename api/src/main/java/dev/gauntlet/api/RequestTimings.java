package dev.gauntlet.api;

/**
 * Where a request's time went, as the built-in engine sees it on the wire (k6's {@code http_req_connecting},
 * {@code http_req_tls_handshaking}, {@code http_req_waiting}, {@code http_req_receiving}); a client library's engine
 * does not measure them.
 *
 * @param connect      a TCP connect, from its start to its establishment (every connection opened, warm-up included)
 * @param tlsHandshake a TLS handshake, from the connect's establishment to the handshake's end; empty in clear
 * @param waiting      a measured request, from its send to the first byte of its answer (HTTP/1.1)
 * @param receiving    the same request, from the first byte of its answer to the last
 */
public record RequestTimings(Percentiles connect, Percentiles tlsHandshake, Percentiles waiting, Percentiles receiving) {
}
