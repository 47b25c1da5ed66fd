package dev.gauntlet.api;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * How a generator offers load: the closed set of load models.
 *
 * <pre>{@code
 * LoadModel open = new LoadModel.OpenLoop(10_000, InterArrival.EXPONENTIAL);
 * LoadModel closed = new LoadModel.ClosedLoop(50);
 * LoadModel held = new LoadModel.MaxConcurrency(15_000);
 * }</pre>
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = LoadModel.OpenLoop.class, name = "open"),
        @JsonSubTypes.Type(value = LoadModel.ClosedLoop.class, name = "closed"),
        @JsonSubTypes.Type(value = LoadModel.MaxConcurrency.class, name = "max-concurrency")
})
public sealed interface LoadModel {

    /** One line for tables and progress output, e.g. {@code open 1000/s exp}. */
    String describe();

    /**
     * Requests start at a target rate whatever is in flight; response time counts from the
     * intended start, so a stalled server cannot hide behind a generator that waits for it.
     */
    record OpenLoop(double ratePerSec, InterArrival interArrival) implements LoadModel {
        public OpenLoop {
            if (!(ratePerSec > 0)) {
                throw new IllegalArgumentException("rate must be > 0 requests/s, got " + ratePerSec);
            }
            if (interArrival == null) {
                interArrival = InterArrival.EXPONENTIAL;
            }
        }

        @Override
        public String describe() {
            return "open " + Numbers.compact(ratePerSec) + "/s " + interArrival.shortName();
        }
    }

    /** C keep-alive connections, each sending its next request when the previous one completed. */
    record ClosedLoop(int connections) implements LoadModel {
        public ClosedLoop {
            if (connections < 1) {
                throw new IllegalArgumentException("connections must be >= 1, got " + connections);
            }
        }

        @Override
        public String describe() {
            return "closed " + connections + "c";
        }
    }

    /** Opens N long requests as fast as possible and holds them: how many does the server take? */
    record MaxConcurrency(int requests) implements LoadModel {
        public MaxConcurrency {
            if (requests < 1) {
                throw new IllegalArgumentException("max concurrency must be >= 1, got " + requests);
            }
        }

        @Override
        public String describe() {
            return "max-concurrency " + requests;
        }
    }

    /** The distribution of gaps between intended starts in an open loop. */
    enum InterArrival {
        /** Poisson arrivals: exponentially distributed gaps with mean 1/rate. */
        EXPONENTIAL,
        /** Exactly 1/rate between starts. */
        CONSTANT;

        String shortName() {
            return this == EXPONENTIAL ? "exp" : "const";
        }
    }
}
