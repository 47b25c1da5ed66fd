package dev.gauntlet.loadgen;

import java.util.NoSuchElementException;

/** A growable FIFO ring of longs: the intended starts waiting for a connection, and since when. */
final class LongQueue {
    private long[] values = new long[64];
    private int head;
    private int size;

    void add(long value) {
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
}
