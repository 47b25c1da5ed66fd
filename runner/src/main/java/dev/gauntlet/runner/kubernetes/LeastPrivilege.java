package dev.gauntlet.runner.kubernetes;

import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;

/**
 * The least a Gauntlet JVM needs in a pod, shards and targets alike: a non-root user, no privilege escalation, no
 * capabilities and the runtime's default seccomp profile, which meets the {@code restricted} Pod Security Standard
 * in all but the host networking the pods use.
 */
final class LeastPrivilege {
    /**
     * Any id but root's: the image needs no user of its own, since a JVM writes only into its emptyDir (a shard's
     * results) and the image's world-writable /tmp.
     */
    static final long USER = 65532;

    private LeastPrivilege() {
    }

    static PodSecurityContext pod() {
        return new PodSecurityContextBuilder().withRunAsNonRoot(true).withRunAsUser(USER).withRunAsGroup(USER).withFsGroup(USER)
                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile().build();
    }

    static SecurityContext container() {
        return new SecurityContextBuilder().withAllowPrivilegeEscalation(false).withNewCapabilities().withDrop("ALL")
                .endCapabilities().build();
    }
}
