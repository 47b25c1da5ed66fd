package dev.gauntlet.targets.dummy;

/** {@code dummy-spin-50us}: the dummy spinning {@value #SERVICE_MICROS} µs of CPU per hello answer. */
public final class Spin50DummyServer extends SpinningDummyServer {
    public static final long SERVICE_MICROS = 50;

    public Spin50DummyServer() {
        super(SERVICE_MICROS);
    }
}
