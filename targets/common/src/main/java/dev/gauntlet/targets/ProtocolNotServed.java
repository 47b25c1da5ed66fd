package dev.gauntlet.targets;

import dev.gauntlet.api.Protocol;

/**
 * Thrown by {@link HelloServer#start} when the settings ask for TLS, HTTP/2 or HTTP/3 and the server's code has none, so that it
 * refuses rather than serving something else. What a target serves is listed once, in the target catalogue (which the
 * runner checks before it starts one); only a server that lacks a protocol says so, where it would otherwise ignore
 * the setting. {@code TargetMain} turns it into one line and exit code 2.
 */
public final class ProtocolNotServed extends Exception {
    private final Protocol asked;
    private final String flag;

    /**
     * @param asked what the settings ask the port to speak
     * @param flag  the flag that asks for what the server lacks: {@code --tls}, {@code --http2} or {@code --http3}
     */
    public ProtocolNotServed(Protocol asked, String flag) {
        super("does not serve " + asked.label());
        this.asked = asked;
        this.flag = flag;
    }

    /** Refuses {@code settings} unless they ask for cleartext HTTP/1.1: for a server with neither TLS nor HTTP/2. */
    public static void unlessHttp1(TargetSettings settings) throws ProtocolNotServed {
        if (settings.tls() != null) {
            throw new ProtocolNotServed(settings.protocol(), "--tls");
        }
        unlessHttp11(settings);
    }

    /** Refuses {@code settings} when they ask for HTTP/2: for a server that has TLS but no HTTP/2. */
    public static void unlessHttp11(TargetSettings settings) throws ProtocolNotServed {
        if (settings.http2()) {
            throw new ProtocolNotServed(settings.protocol(), "--http2");
        }
    }

    public Protocol asked() {
        return asked;
    }

    public String flag() {
        return flag;
    }
}
