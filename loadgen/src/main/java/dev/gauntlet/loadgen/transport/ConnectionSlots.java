package dev.gauntlet.loadgen.transport;

import dev.gauntlet.api.LoadSpec;

/**
 * A spec's connections as the engines count them, in requests at once: over HTTP/2 or HTTP/3 each connection carries
 * the spec's streams, so a closed loop's or a fixed pool's C connections are C × streams slots (h2load's
 * {@code -c} × {@code -m}); over HTTP/1.1 a slot is a connection.
 */
public final class ConnectionSlots {
    private ConnectionSlots() {
    }

    /** The spec with its model's connections counted in slots; the spec itself over HTTP/1.1 or for a held model. */
    public static LoadSpec of(LoadSpec spec) {
        if (!spec.protocol().multiplexed() || spec.streams() == 1 || spec.model().holdsRequests()) {
            return spec;
        }
        long connections = spec.model().connectionsOpened(0);
        return connections == 0 ? spec : spec.toBuilder()
                .model(spec.model().withConnections((int) Math.min(Integer.MAX_VALUE, connections * spec.streams()))).build();
    }

    /** An open loop's connection limit in slots. */
    public static int limit(LoadSpec spec, int maxConnections) {
        return spec.protocol().multiplexed() ? (int) Math.min(Integer.MAX_VALUE, (long) maxConnections * spec.streams()) : maxConnections;
    }
}
