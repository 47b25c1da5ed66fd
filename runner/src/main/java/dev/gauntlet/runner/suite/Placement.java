package dev.gauntlet.runner.suite;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Where a suite's targets and generators run ({@code placement:} in a suite file, {@code --kubernetes} on run). */
public enum Placement {
    /** On this machine: each role in its CPU set and cgroup, over loopback or a veth pair ({@code --network}). */
    @JsonProperty("local") LOCAL,
    /**
     * In the kubeconfig's cluster: each target a pod on a node of its own, the generator an Indexed Job of shards
     * on other nodes ({@link ClusterSettings}).
     */
    @JsonProperty("kubernetes") KUBERNETES;

    /** Leaves {@code local} out of a written suite: a suite file, and the suite.json of a local run, read as before. */
    static final class LocalFilter {
        @Override
        public boolean equals(Object value) {
            return value == null || value == LOCAL;
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }
}
