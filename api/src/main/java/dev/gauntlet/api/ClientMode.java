package dev.gauntlet.api;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/** How a client library is driven, as the 2015 client study compared thread-blocking with fiber-blocking. */
public enum ClientMode {
    /** The library's blocking call on a new platform thread per request, uncapped: thread exhaustion shows as errors. */
    PLATFORM,
    /** The same blocking call on a new virtual thread per request. */
    VIRTUAL,
    /** The library's own callback or future API: no thread per request. */
    ASYNC;

    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static ClientMode of(String id) {
        for (ClientMode mode : values()) {
            if (mode.id().equals(id)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("unknown client mode " + id + "; one of platform, virtual, async");
    }

    /** Whether the mode calls the library's blocking API (on a thread per request). */
    public boolean blocking() {
        return this != ASYNC;
    }
}
