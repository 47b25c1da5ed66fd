package dev.gauntlet.runner.kubernetes;

import dev.gauntlet.loadgen.ShardMain;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;

import java.util.List;
import java.util.Objects;

/** What a shard's pod says of itself: whether it is ready or ended, and why it failed or waits, in words. */
final class PodStates {
    private PodStates() {
    }

    static String exit(Pod pod) {
        ContainerStateTerminated terminated = terminated(pod);
        if (terminated == null) {
            return Objects.requireNonNullElse(pod.getStatus().getReason(), "failed") + reasonOf(pod);
        }
        int code = terminated.getExitCode();
        return (code == 137 ? "killed (exit code 137)" : code == ShardMain.MISSED_START
                ? "missed the common start (exit code " + code + ")" : "exit code " + code)
                + (terminated.getReason() != null && !"Error".equals(terminated.getReason())
                && !"Completed".equals(terminated.getReason()) ? ", " + terminated.getReason() : "");
    }

    private static ContainerStateTerminated terminated(Pod pod) {
        ContainerState state = state(pod);
        return state == null ? null : state.getTerminated();
    }

    private static ContainerState state(Pod pod) {
        List<ContainerStatus> statuses = pod.getStatus().getContainerStatuses();
        return statuses == null || statuses.isEmpty() ? null : statuses.getFirst().getState();
    }

    /** Why a pod is not ready: its container's waiting reason (ErrImagePull, say), else its condition's. */
    static String reasonOf(Pod pod) {
        ContainerState state = state(pod);
        ContainerStateWaiting waiting = state == null ? null : state.getWaiting();
        if (waiting != null && waiting.getReason() != null) {
            return " (" + waiting.getReason() + (waiting.getMessage() == null ? "" : ": " + waiting.getMessage()) + ")";
        }
        List<PodCondition> conditions = pod.getStatus().getConditions();
        return conditions == null ? "" : conditions.stream().filter(c -> "False".equals(c.getStatus()) && c.getReason() != null)
                .findFirst().map(c -> " (" + c.getReason() + (c.getMessage() == null ? "" : ": " + c.getMessage()) + ")")
                .orElse("");
    }

    static boolean isReady(Pod pod) {
        List<PodCondition> conditions = pod.getStatus() == null ? null : pod.getStatus().getConditions();
        return conditions != null && conditions.stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    static boolean hasEnded(Pod pod) {
        return "Succeeded".equals(pod.getStatus().getPhase()) || "Failed".equals(pod.getStatus().getPhase());
    }
}
