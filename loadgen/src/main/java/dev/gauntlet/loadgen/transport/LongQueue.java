package dev.gauntlet.loadgen.transport;

import java.util.NoSuchElementException;

/**
 * A FIFO ring of longs that grows up to a fixed capacity and refuses beyond it: the intended
 * starts waiting for a connection, and since when. The bound is what keeps an open loop whose
 * rate outruns its sending from filling the heap with requests it will never send.
 *
 * <pre>{@code
 * LongQueue pending = new LongQueue(1 << 20);
 * if (!pending.offer(intendedStartNs)) dropped++;   // full: the caller counts what it could not queue
 * }</pre>
 */
final class LongQueue {
    private static final int INITIAL_LENGTH = 64;

    private final int capacity;
    private long[] values;
    private int head;
    private int size;

    /** @param capacity values held at most, at least 1 */
    LongQueue(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.capacity = capacity;
        // A power of two, so that indices wrap with a mask; never longer than the capacity needs.
        this.values = new long[Math.min(INITIAL_LENGTH, ceilingPowerOfTwo(capacity))];
    }

    /** Adds {@code value} at the tail; false, leaving the queue as it was, when it holds its capacity already. */
    boolean offer(long value) {
        if (size == capacity) {
            return false;
        }
        if (size == values.length) {
            long[] grown = new long[values.length * 2];
            for (int i = 0; i < size; i++) {
                grown[i] = values[(head + i) & (values.length - 1)];
            }
            values = grown;
            head = 0;
        }
        values[(head + size) & (values.length - 1)] = value;
        size++;
        return true;
    }

    long poll() {
        if (size == 0) {
            throw new NoSuchElementException();
        }
        long value = values[head];
        head = (head + 1) & (values.length - 1);
        size--;
        return value;
    }

    /** The oldest value, left in the queue. */
    long peek() {
        if (size == 0) {
            throw new NoSuchElementException();
        }
        return values[head];
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    private static int ceilingPowerOfTwo(int n) {
        return n <= 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
    }
}
