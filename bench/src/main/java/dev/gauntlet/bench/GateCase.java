package dev.gauntlet.bench;

import dev.gauntlet.api.LoadModel;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/**
 * One case of the performance gate: a load Gauntlet's generator offers, and the peer that offers the same load, each
 * on the same connections to the same nginx.
 *
 * @param name  the case's name, as the bounds table in docs/benchmarks.md names it
 * @param model Gauntlet's load
 * @param wakeGranularityUs an open loop's wake granularity, fixed at wrk2's millisecond: left to the platform's noise
 *                          ({@code auto}), it changed Gauntlet's cost from run to run by half; null for a closed loop
 * @param peer  which peer binary runs it: {@code wrk2} (open loop at a rate) or {@code wrk} (closed loop)
 * @param peerArgs the peer's arguments before the URL; its duration is set long, the gate ends it after the case
 */
record GateCase(String name, LoadModel model, Long wakeGranularityUs, String peer, List<String> peerArgs) {
    /**
     * An open loop whose count of answers is off its rate's by more than this share was not at the rate: not there yet,
     * behind it (the client CPU full), or catching up after that; its cost is not the cost at that rate.
     */
    private static final double RATE_TOLERANCE = 0.05;
    /** Connections of the open-loop cases: wrk2's {@code -c}, Gauntlet's fixed pool. */
    static final int OPEN_CONNECTIONS = 100;
    static final int CLOSED_CONNECTIONS = 50;
    /**
     * A peer's {@code -d}: longer than the gate gives a case (its {@code --seconds} are checked against it); the gate
     * ends the peer once the case is measured, and a peer left behind by a killed gate ends by itself.
     */
    static final int PEER_SECONDS = 120;
    private static final String PEER_DURATION = PEER_SECONDS + "s";

    /** Every case, the noisiest last: the gate gives it the time the others decided early in. */
    static final List<GateCase> ALL = List.of(
            new GateCase("closed", new LoadModel.ClosedLoop(CLOSED_CONNECTIONS), null, "wrk",
                    List.of("-t1", "-c" + CLOSED_CONNECTIONS, "-d" + PEER_DURATION)),
            openLoop(50_000), openLoop(10_000));

    /** The open loop at {@code ratePerSec}: wrk2 spaces its requests evenly, so Gauntlet's gaps are constant too. */
    private static GateCase openLoop(int ratePerSec) {
        return new GateCase("open-" + ratePerSec / 1000 + "k",
                LoadModel.OpenLoop.fixedPool(ratePerSec, LoadModel.InterArrival.CONSTANT, OPEN_CONNECTIONS), 1_000L, "wrk2",
                List.of("-t1", "-c" + OPEN_CONNECTIONS, "-d" + PEER_DURATION, "-R" + ratePerSec));
    }

    /** Whether a window ran at the case's load: an open loop's at its rate; a closed loop's at whatever it reached. */
    boolean atItsLoad(WindowCost window) {
        return atItsLoad(window.requests(), WindowCost.SECONDS);
    }

    /** Whether {@code requests} answered over {@code seconds} are the case's load: a closed loop's, if any at all. */
    boolean atItsLoad(long requests, double seconds) {
        double expected = model.scheduledRatePerSec() * seconds;
        return model.schedulesByRate() ? Math.abs(requests - expected) <= RATE_TOLERANCE * expected : requests > 0;
    }

    static GateCase named(String name) {
        return ALL.stream().filter(c -> c.name.equals(name)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                "no gate case " + name + "; the cases are " + ALL.stream().map(GateCase::name).toList()));
    }

    /** The peer's command line against {@code url}. */
    List<String> peerCommand(Path wrk2, Path wrk, URI url) {
        Path binary = peer.equals("wrk2") ? wrk2 : wrk;
        return java.util.stream.Stream.of(List.of(binary.toString()), peerArgs, List.of(url.toString()))
                .flatMap(List::stream).toList();
    }
}
