package dev.gauntlet.targets.dummy;

/** {@code dummy-spin-100us}: the dummy spinning {@value #SERVICE_MICROS} µs of CPU per hello answer. */
public final class Spin100DummyServer extends SpinningDummyServer {
    public static final long SERVICE_MICROS = 100;

    public Spin100DummyServer() {
        super(SERVICE_MICROS);
    }
}
