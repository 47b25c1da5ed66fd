package dev.gauntlet.api;

/** Why a request failed; every failed request is counted in exactly one class and never retried. */
public enum ErrorClass {
    /** The connection was refused (nothing listening, or the backlog is full). */
    REFUSED,
    /** The connection was not established within the connect timeout. */
    CONNECT_TIMEOUT,
    /** The peer reset or closed the connection before a whole response arrived. */
    RESET,
    /** No whole response within the response timeout. */
    RESPONSE_TIMEOUT,
    /** A well-formed response with a status other than the expected one. */
    BAD_STATUS,
    /** A well-formed response with the expected status and another body. */
    BAD_BODY,
    /** A response that is not valid HTTP/1.1, or frames that break HTTP/2. */
    PROTOCOL,
    /**
     * The generator could not start a thread for the request: a blocking client mode at the
     * operating system's or the JVM's thread limit (the 2015 client study's "OOM - thread").
     */
    NO_THREAD,
    /** A client library failed the request on its own side, before or without any I/O failure it could name. */
    CLIENT,
    /** The TLS handshake failed: a certificate not trusted or not for this host, no protocol in common, a broken record. */
    TLS,
    /** HTTP/2: the server reset the request's stream ({@code RST_STREAM}, {@code REFUSED_STREAM} included). */
    STREAM_RESET,
    /** HTTP/2: the server's {@code GOAWAY} left the request's stream unprocessed, or closed the connection under it. */
    GOAWAY
}
