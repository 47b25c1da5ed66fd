package dev.gauntlet.runner.architecturefixture.up;

import dev.gauntlet.runner.architecturefixture.down.Down;

/** Half of a package cycle that ArchitectureTest must find: up uses down. */
public final class Up {
    private Up() {
    }

    public static int depth() {
        return Down.depth() + 1;
    }
}
