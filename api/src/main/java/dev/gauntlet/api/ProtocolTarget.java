package dev.gauntlet.api;

/**
 * A catalogue target and the protocol it is started and loaded with, written {@code NAME@PROTOCOL} (e.g.
 * {@code netty-event-loop@h2}); a bare name is HTTP/1.1 in clear. Suites with {@code protocols} run one target JVM per
 * target and protocol, named so in their results.
 */
public record ProtocolTarget(String target, Protocol protocol) {
    private static final char SEPARATOR = '@';

    /** {@code NAME} or {@code NAME@PROTOCOL}; an unknown protocol is an {@link IllegalArgumentException}. */
    public static ProtocolTarget parse(String name) {
        int at = name.lastIndexOf(SEPARATOR);
        return at < 0 ? new ProtocolTarget(name, Protocol.HTTP1)
                : new ProtocolTarget(name.substring(0, at), Protocol.fromLabel(name.substring(at + 1)));
    }

    /** The name with its protocol: {@code NAME@PROTOCOL}. */
    public static String name(String target, Protocol protocol) {
        return target + SEPARATOR + protocol.label();
    }
}
