package dev.gauntlet.api;

import java.util.Locale;

/** How a client library is driven, as the 2015 client study compared thread-blocking with fiber-blocking. */
public enum ClientMode {
    /** The library's blocking call on a new platform thread per request, uncapped: thread exhaustion shows as errors. */
    PLATFORM,
    /** The same blocking call on a new virtual thread per request. */
    VIRTUAL,
    /** The library's own callback or future API: the driver starts no thread per request (some libraries hold one of their own). */
    ASYNC;

    /** The mode as client names and {@code gauntlet clients} spell it: {@code platform}, {@code virtual}, {@code async}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether the mode calls the library's blocking API (on a thread per request). */
    public boolean blocking() {
        return this != ASYNC;
    }
}
