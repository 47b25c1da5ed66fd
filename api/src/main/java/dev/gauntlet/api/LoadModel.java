package dev.gauntlet.api;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * How a generator offers load: the closed set of load models.
 *
 * <pre>{@code
 * LoadModel open = new LoadModel.OpenLoop(10_000, InterArrival.EXPONENTIAL);          // adaptive connections
 * LoadModel pool = LoadModel.OpenLoop.fixedPool(10_000, InterArrival.EXPONENTIAL, 100);  // over 100 connections
 * LoadModel closed = new LoadModel.ClosedLoop(50);
 * LoadModel held = new LoadModel.MaxConcurrency(15_000);
 * }</pre>
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = LoadModel.OpenLoop.class, name = "open"),
        @JsonSubTypes.Type(value = LoadModel.ClosedLoop.class, name = "closed"),
        @JsonSubTypes.Type(value = LoadModel.MaxConcurrency.class, name = LoadModel.MaxConcurrency.TYPE)
})
public sealed interface LoadModel {

    /** One line for tables and progress output, e.g. {@code open 1000/s exp}. */
    String describe();

    /** The rate an open loop schedules its starts at, requests/s; 0 for a load its responses pace. */
    default double scheduledRatePerSec() {
        return 0;
    }

    /**
     * Whether requests start on a schedule at {@link #scheduledRatePerSec()} whatever the answers (an open loop): such
     * a load has a rate to offer, to ramp up to and to fall behind, a sustained rate and a wake granularity.
     */
    boolean schedulesByRate();

    /**
     * Whether its requests are held open to the end of the measured phase rather than answered (max concurrency): each
     * on a connection of its own, opened in one burst; none completes while measured, so it has no steady state to warm
     * up to, and its figure is how many the target took on at once.
     */
    boolean holdsRequests();

    /**
     * Whether a load {@link #describe() described} as {@code description}, as a results row's {@code load} keeps it,
     * holds its requests ({@link #holdsRequests()}).
     */
    static boolean describesHeldLoad(String description) {
        return description.startsWith(MaxConcurrency.TYPE + " ");
    }

    /** What {@link #withConnections} counts, as a message names it: connections, or max concurrency's held requests. */
    String connectionsCalled();

    /**
     * How much later than share 0 share {@code shareIndex} of this load, split over processes, begins its
     * schedule, ns: a constant schedule's shares interleave their starts; the others begin together.
     */
    default long shareStartOffsetNs(int shareIndex) {
        return 0;
    }

    /**
     * Share {@code shareIndex} of {@code shares} of this load, for one generator process or thread: the rate
     * divided evenly, the connections or held requests so that shares differ by one at most.
     *
     * @throws IllegalArgumentException when there are fewer connections or requests than shares
     */
    LoadModel share(int shareIndex, int shares);

    /**
     * Part {@code index} of {@code total} cut into {@code n}, the parts differing by one at most, as a load is split
     * over processes; {@code what} names the total in the error when a part would be empty.
     */
    static int evenShare(long total, int index, int n, String what) {
        long part = total / n + (index < total % n ? 1 : 0);
        if (part < 1) {
            throw new IllegalArgumentException(total + " " + what + " cannot be split over " + n + " processes");
        }
        return (int) part;
    }

    /** This load with its rate multiplied by {@code factor} (whole requests/s, 1 at least); a load without a rate as it is. */
    LoadModel scaledBy(double factor);

    /**
     * The connections a generator opens at most for this load: a closed loop's, a fixed pool's, one per held
     * request, or else an open loop's {@code maxConnections} (0: left to the machine).
     */
    long connectionsOpened(int maxConnections);

    /** This load over {@code connections}: a closed loop's connections, the held requests, an open loop's fixed pool. */
    LoadModel withConnections(int connections);

    /** Requests held open to the end of the measured phase (max concurrency's); 0 when requests complete. */
    int heldRequests();

    /**
     * Whether this load's response times are free of coordinated omission: each request's intended start comes from a
     * schedule the answers do not move, so a target that stalls shows in the times of the requests it held up. Where
     * the next request waits for an answer (a closed loop, as wrk's), it is intended when it goes: a stall delays the
     * next send instead of showing in a time, which then runs from the actual send.
     */
    boolean freeOfCoordinatedOmission();

    /**
     * The figure a study ranks targets by under this load, what it is for: an open loop's p99 (the tail at the rate
     * offered), a closed loop's rate (what it completes when the next request waits for the answer), max
     * concurrency's requests held at once.
     */
    RankedBy rankedBy();

    /** A figure targets are ranked by ({@link #rankedBy()}). */
    enum RankedBy {
        P99, RATE, HELD
    }

    /**
     * Requests start at a target rate whatever is in flight; response time counts from the
     * intended start, so a stalled server cannot hide behind a generator that waits for it. A
     * request due while no connection is free waits for one, keeping its intended start; the
     * {@link ConnectionPolicy} says when the generator opens another.
     *
     * @param connections the pool's size with {@link ConnectionPolicy#FIXED}; 0 with the others
     */
    record OpenLoop(double ratePerSec, InterArrival interArrival, ConnectionPolicy connectionPolicy, int connections)
            implements LoadModel {
        public OpenLoop {
            if (!(ratePerSec > 0) || Double.isInfinite(ratePerSec)) {
                throw new IllegalArgumentException("rate must be > 0 requests/s and finite, got " + ratePerSec);
            }
            if (interArrival == null) {
                interArrival = InterArrival.EXPONENTIAL;
            }
            if (connectionPolicy == null) {
                connectionPolicy = connections > 0 ? ConnectionPolicy.FIXED : ConnectionPolicy.ADAPTIVE;
            }
            if (connectionPolicy == ConnectionPolicy.FIXED && connections < 1) {
                throw new IllegalArgumentException("a FIXED pool needs connections >= 1, got " + connections);
            }
            if (connectionPolicy != ConnectionPolicy.FIXED && connections != 0) {
                throw new IllegalArgumentException("connections (" + connections + ") is the size of a FIXED pool; the "
                        + connectionPolicy + " policy opens its own, up to the generator's maxConnections");
            }
        }

        /** The default policy, {@link ConnectionPolicy#ADAPTIVE}. */
        public OpenLoop(double ratePerSec, InterArrival interArrival) {
            this(ratePerSec, interArrival, ConnectionPolicy.ADAPTIVE, 0);
        }

        /** R requests/s over C connections opened at the start, as wrk2 does. */
        public static OpenLoop fixedPool(double ratePerSec, InterArrival interArrival, int connections) {
            return new OpenLoop(ratePerSec, interArrival, ConnectionPolicy.FIXED, connections);
        }


        @Override
        public String describe() {
            String open = "open " + Numbers.compact(ratePerSec) + "/s " + interArrival.shortName();
            return switch (connectionPolicy) {
                case ADAPTIVE -> open;
                case FIXED -> open + " " + connections + "c";
                case UNBOUNDED -> open + " unbounded";
            };
        }

        @Override
        public LoadModel scaledBy(double factor) {
            // Whole requests per second, never below one: a rate of 0.3/s would measure nothing in a few seconds.
            return new OpenLoop(Math.max(1, Math.round(ratePerSec * factor)), interArrival, connectionPolicy, connections);
        }

        @Override
        public long connectionsOpened(int maxConnections) {
            return connectionPolicy == ConnectionPolicy.FIXED ? connections : maxConnections;
        }

        @Override
        public LoadModel withConnections(int connections) {
            return fixedPool(ratePerSec, interArrival, connections);
        }

        @Override
        public int heldRequests() {
            return 0;
        }

        @Override
        public boolean schedulesByRate() {
            return true;
        }

        @Override
        public boolean holdsRequests() {
            return false;
        }

        @Override
        public String connectionsCalled() {
            return "connections";
        }

        @Override
        public boolean freeOfCoordinatedOmission() {
            return true;
        }

        @Override
        public RankedBy rankedBy() {
            return RankedBy.P99;
        }

        @Override
        public double scheduledRatePerSec() {
            return ratePerSec;
        }

        @Override
        public long shareStartOffsetNs(int shareIndex) {
            return interArrival == InterArrival.CONSTANT ? (long) (shareIndex * 1e9 / ratePerSec) : 0;
        }

        @Override
        public LoadModel share(int shareIndex, int shares) {
            return new OpenLoop(ratePerSec / shares, interArrival, connectionPolicy,
                    connections == 0 ? 0 : LoadModel.evenShare(connections, shareIndex, shares, "connections"));
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

        @Override
        public LoadModel scaledBy(double factor) {
            return this;
        }

        @Override
        public long connectionsOpened(int maxConnections) {
            return connections;
        }

        @Override
        public LoadModel withConnections(int connections) {
            return new ClosedLoop(connections);
        }

        @Override
        public int heldRequests() {
            return 0;
        }

        @Override
        public boolean schedulesByRate() {
            return false;
        }

        @Override
        public boolean holdsRequests() {
            return false;
        }

        @Override
        public String connectionsCalled() {
            return "connections";
        }

        /** Each next request waits for the answer before it. */
        @Override
        public boolean freeOfCoordinatedOmission() {
            return false;
        }

        @Override
        public RankedBy rankedBy() {
            return RankedBy.RATE;
        }

        @Override
        public LoadModel share(int shareIndex, int shares) {
            return new ClosedLoop(LoadModel.evenShare(connections, shareIndex, shares, "connections"));
        }
    }

    /** Opens N long requests as fast as possible and holds them: how many does the server take? */
    record MaxConcurrency(int requests) implements LoadModel {
        /** Its name in a suite file and the first word of {@link #describe()}, which results.json rows carry as {@code load}. */
        public static final String TYPE = "max-concurrency";

        public MaxConcurrency {
            if (requests < 1) {
                throw new IllegalArgumentException("max concurrency must be >= 1, got " + requests);
            }
        }


        @Override
        public String describe() {
            return TYPE + " " + requests;
        }

        @Override
        public LoadModel scaledBy(double factor) {
            return this;
        }

        @Override
        public long connectionsOpened(int maxConnections) {
            return requests;
        }

        @Override
        public LoadModel withConnections(int connections) {
            return new MaxConcurrency(connections);
        }

        @Override
        public int heldRequests() {
            return requests;
        }

        @Override
        public boolean schedulesByRate() {
            return false;
        }

        @Override
        public boolean holdsRequests() {
            return true;
        }

        @Override
        public String connectionsCalled() {
            return "held requests";
        }

        /**
         * The burst is intended at the measured phase's start, each request waiting for a connection of its own; but one
         * that follows an answered one on its capacity is intended when it goes, as a closed loop's.
         */
        @Override
        public boolean freeOfCoordinatedOmission() {
            return false;
        }

        @Override
        public RankedBy rankedBy() {
            return RankedBy.HELD;
        }

        @Override
        public LoadModel share(int shareIndex, int shares) {
            return new MaxConcurrency(LoadModel.evenShare(requests, shareIndex, shares, "requests"));
        }
    }

    /**
     * When an open loop opens connections. Whatever the policy, a request that finds no free
     * connection waits for one and keeps its intended start, so the wait shows in its response time.
     */
    enum ConnectionPolicy {
        /**
         * A pool sized by Little's law (twice the rate times the median service time, 16 at least),
         * opened ahead of need during the warm-up and grown as that estimate grows; beyond it, one more
         * connection at most every 10 ms while a request has waited that long for one. A platform
         * hiccup or a stalled server then queues requests instead of opening a burst of connections.
         */
        ADAPTIVE,
        /** C connections opened at the start and kept (reopened if the server closes one), never more. */
        FIXED,
        /**
         * A new connection for every request that finds none free: each waiting request is a new
         * client, as many as the generator's connection limit allows. For a flood of new clients.
         */
        UNBOUNDED
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
