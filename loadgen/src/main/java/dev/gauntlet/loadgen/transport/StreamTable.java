package dev.gauntlet.loadgen.transport;

/**
 * An HTTP/2 connection's streams in flight by id, for the frames that arrive: open addressing on the odd ids a client
 * uses, so finding a stream allocates nothing. Sized for the streams the connection may carry at once.
 */
final class StreamTable {
    private final int[] ids;
    private final Connection[] streams;
    private final int mask;
    private int size;

    StreamTable(int maxStreams) {
        int capacity = Integer.highestOneBit(Math.max(4, maxStreams) * 2 - 1) << 1;
        ids = new int[capacity];
        streams = new Connection[capacity];
        mask = capacity - 1;
    }

    int size() {
        return size;
    }

    void put(int id, Connection stream) {
        int slot = slot(id);
        while (ids[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        ids[slot] = id;
        streams[slot] = stream;
        size++;
    }

    /** The stream with {@code id}, or null. */
    Connection get(int id) {
        for (int slot = slot(id); ids[slot] != 0; slot = (slot + 1) & mask) {
            if (ids[slot] == id) {
                return streams[slot];
            }
        }
        return null;
    }

    /** Removes {@code id}, moving back the entries after it that probed past its slot. */
    void remove(int id) {
        int slot = slot(id);
        while (ids[slot] != id) {
            if (ids[slot] == 0) {
                return;
            }
            slot = (slot + 1) & mask;
        }
        size--;
        int hole = slot;
        for (int next = (hole + 1) & mask; ids[next] != 0; next = (next + 1) & mask) {
            int home = slot(ids[next]);
            // Moves the entry back unless its home lies cyclically in (hole, next].
            if (((next - home) & mask) >= ((next - hole) & mask)) {
                ids[hole] = ids[next];
                streams[hole] = streams[next];
                hole = next;
            }
        }
        ids[hole] = 0;
        streams[hole] = null;
    }

    /** Each stream in flight, in no order; the table must not change meanwhile. */
    void forEach(java.util.function.Consumer<Connection> action) {
        for (int slot = 0; slot < ids.length; slot++) {
            if (ids[slot] != 0) {
                action.accept(streams[slot]);
            }
        }
    }

    private int slot(int id) {
        return (id >>> 1) & mask;
    }
}
