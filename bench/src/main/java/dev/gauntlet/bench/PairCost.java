package dev.gauntlet.bench;

/**
 * One pair of a gate case: Gauntlet's window and the peer's, measured at once.
 *
 * @param gauntlet Gauntlet's generator's window
 * @param peer     the peer's window
 */
record PairCost(WindowCost gauntlet, WindowCost peer) {
    /**
     * A window whose JIT compiler took more than this share of its CPU was not at the generator's steady cost (each
     * case's runs in the gate's one JVM recompile what the case before it deoptimised).
     */
    static final double JIT_QUIET = 0.05;

    /** Gauntlet's CPU per request over the peer's. */
    double ratio() {
        return gauntlet.cpuNsPerRequest() / peer.cpuNsPerRequest();
    }

    /** Why the pair tells nothing of the case's steady cost, or null when it does. */
    String spoilt(GateCase gateCase) {
        if (!gateCase.atItsLoad(gauntlet) || !gateCase.atItsLoad(peer)) {
            return "not at the case's rate";
        }
        double jitShare = (double) gauntlet.jitNs() / gauntlet.cpuNs();
        return jitShare > JIT_QUIET ? String.format(java.util.Locale.ROOT, "Gauntlet's JIT compiling (%.0f %% of its CPU)",
                100 * jitShare) : null;
    }
}
