package dev.gauntlet.targets.dummy;

/** {@code dummy-spin-50us}: the dummy spinning 50 µs of CPU per hello answer. */
public final class Spin50DummyServer extends SpinningDummyServer {
    public Spin50DummyServer() {
        super(50);
    }
}
