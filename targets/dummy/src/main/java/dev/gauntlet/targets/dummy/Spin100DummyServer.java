package dev.gauntlet.targets.dummy;

/** {@code dummy-spin-100us}: the dummy spinning 100 µs of CPU per hello answer. */
public final class Spin100DummyServer extends SpinningDummyServer {
    public Spin100DummyServer() {
        super(100);
    }
}
