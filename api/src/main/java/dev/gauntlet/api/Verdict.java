package dev.gauntlet.api;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/**
 * Whose figures a run's are. Every run carries exactly one, with its evidence; the rules and
 * their thresholds are in {@code docs/verdicts.md}.
 */
public enum Verdict {
    /** The generator kept its schedule, the target kept up: the figures are the target's. */
    OK,
    /**
     * The target did not keep up (timeouts, resets, connections piling up, requests waiting for a
     * connection because every one was busy). Still the target's figures: errors and maximum time
     * are what it did under this load.
     */
    TARGET_OVERLOADED,
    /** The generator itself was the bottleneck: the figures are not the target's. */
    GENERATOR_LIMITED,
    /**
     * A client library engine was the bottleneck: in a study of clients (the {@code client} suite) that is
     * the subject's own figure, the library's, not the target's; a study of servers reads it as
     * generator-limited.
     */
    CLIENT_LIMITED,
    /**
     * The figures are not a steady state's: the warm-up did not settle within its maximum, or the
     * measured phase's throughput or median latency moved between its halves beyond the tolerance
     * and what the platform's hiccups and its capacity explain. Still the target's figures, of a moving target.
     */
    NOT_STEADY,
    /**
     * The lateness is what the platform's measured hiccups explain, or a drift is what the machine's
     * measured capacity on a role's CPUs explains: the figures stand within that floor.
     */
    PLATFORM_NOISY;

    /** As written in JSON and tables: {@code ok}, {@code target-overloaded}, ... */
    @JsonValue
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
