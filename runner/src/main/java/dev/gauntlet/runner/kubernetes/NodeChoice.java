package dev.gauntlet.runner.kubernetes;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.AffinityBuilder;

import java.util.Map;

/** Where a Gauntlet pod may be scheduled, shards and targets alike: by the nodes' labels, and never beside some pods. */
final class NodeChoice {
    private NodeChoice() {
    }

    /** The node selector of a pod: null, not an empty map, when any node will do. */
    static Map<String, String> selector(Map<String, String> labels) {
        return labels.isEmpty() ? null : labels;
    }

    /**
     * A required anti-affinity, by node, to the pods labelled {@code key=value}: one shard per node, or no shard on a
     * target's node (the scheduler honours a required anti-affinity both ways, whichever pod came first).
     */
    static Affinity awayFrom(String key, String value) {
        return new AffinityBuilder().withNewPodAntiAffinity()
                .addNewRequiredDuringSchedulingIgnoredDuringExecution().withTopologyKey("kubernetes.io/hostname")
                    .withNewLabelSelector().addToMatchLabels(key, value).endLabelSelector()
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endPodAntiAffinity().build();
    }
}
