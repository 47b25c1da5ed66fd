package dev.gauntlet.loadgen.engine;

/**
 * A whole response as a library delivered it: the driver, not the engine, checks the status, the
 * body and the HTTP version against what the run expects, so every engine is judged by the same rule.
 *
 * @param status the HTTP status code
 * @param body   the body's bytes, whole (the targets' bodies are a few bytes)
 * @param http2  whether it came as an HTTP/2 stream, as the library reports the version it spoke
 */
public record ClientResponse(int status, byte[] body, boolean http2) {
}
