package dev.gauntlet.runner;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Sends a Unix signal by name ({@code TERM}, {@code INT}, {@code HUP}, {@code STOP}) with {@code kill}, for tests. */
public final class Signals {
    private Signals() {
    }

    public static void send(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-s", signal, Long.toString(pid)).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).as("kill -s %s %d finished", signal, pid).isTrue();
        assertThat(kill.exitValue()).as("kill -s %s %d", signal, pid).isZero();
    }
}
