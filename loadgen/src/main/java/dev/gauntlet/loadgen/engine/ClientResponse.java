package dev.gauntlet.loadgen.engine;

import dev.gauntlet.api.Protocol;

/**
 * A whole response as a library delivered it: the driver, not the engine, checks the status, the
 * body and the HTTP version against what the run expects, so every engine is judged by the same rule.
 *
 * @param status  the HTTP status code
 * @param body    the body's bytes, whole (the targets' bodies are a few bytes)
 * @param version the version it came on, as the library reports the version it spoke
 */
public record ClientResponse(int status, byte[] body, Version version) {
    /** The HTTP versions an engine asks for ({@link ClientSettings#version()}) and a response comes on. */
    public enum Version {
        HTTP_1_1, HTTP_2, HTTP_3;

        /** The version {@code protocol} sends its requests on. */
        public static Version of(Protocol protocol) {
            return protocol.http3() ? HTTP_3 : http2If(protocol.http2());
        }

        /** {@link #HTTP_2} when {@code http2}, else {@link #HTTP_1_1}: for a library that reports HTTP/2 or not. */
        public static Version http2If(boolean http2) {
            return http2 ? HTTP_2 : HTTP_1_1;
        }
    }
}
