package dev.gauntlet.loadgen.engine;

/**
 * A whole response as a library delivered it: the driver, not the engine, checks the status and
 * the body against what the run expects, so every engine is judged by the same rule.
 *
 * @param status the HTTP status code
 * @param body   the body's bytes, whole (the targets' bodies are a few bytes)
 */
public record ClientResponse(int status, byte[] body) {
}
