package dev.gauntlet.runner.architecturefixture.down;

import dev.gauntlet.runner.architecturefixture.up.Up;

/** The other half of the cycle: down runs back up. */
public final class Down {
    private Down() {
    }

    public static int depth() {
        return 0;
    }

    public static int height() {
        return Up.depth();
    }
}
