package dev.gauntlet.runner.architecturefixture;

import dev.gauntlet.api.LoadModel;

/** A type test of a load model outside LoadDriver, which ArchitectureTest must find. */
final class TestsAModelsType {
    private TestsAModelsType() {
    }

    static boolean hasARate(LoadModel model) {
        return model instanceof LoadModel.OpenLoop;
    }
}
