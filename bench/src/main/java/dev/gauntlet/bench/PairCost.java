package dev.gauntlet.bench;

/**
 * One pair of a gate case: Gauntlet's window and the peer's, measured at once.
 *
 * @param gauntlet Gauntlet's generator's window
 * @param peer     the peer's window
 */
record PairCost(WindowCost gauntlet, WindowCost peer) {
    /** Gauntlet's CPU per request over the peer's. */
    double ratio() {
        return gauntlet.cpuNsPerRequest() / peer.cpuNsPerRequest();
    }

    /** Why the pair tells nothing of the case's steady cost, or null when it does. */
    String spoilt(GateCase gateCase) {
        return gateCase.atItsLoad(gauntlet) && gateCase.atItsLoad(peer) ? null : "not at the case's rate";
    }
}
