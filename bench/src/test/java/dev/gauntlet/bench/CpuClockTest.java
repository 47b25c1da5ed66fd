package dev.gauntlet.bench;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class CpuClockTest {

    @Test
    void aProcessesCpuGrowsWithItsWorkAndItsJitIsPartOfIt() {
        long pid = ProcessHandle.current().pid();
        CpuClock cpu = CpuClock.ofProcess(pid);
        CpuClock jit = CpuClock.ofJitCompilers(pid);
        long beforeNs = cpu.cpuNs();
        long untilNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
        while (System.nanoTime() < untilNs) {
            Thread.onSpinWait();
        }
        long usedNs = cpu.cpuNs() - beforeNs;
        assertThat(usedNs).as("50 ms of spinning").isGreaterThan(TimeUnit.MILLISECONDS.toNanos(20));
        // This JVM compiled its startup and the test framework's code: its compiler threads have run.
        assertThat(jit.cpuNs()).isPositive().isLessThan(cpu.cpuNs());
    }

    @Test
    void aProcessWithoutAJitHasNoJitCpu() throws Exception {
        Process sleep = new ProcessBuilder("sleep", "5").start();
        try {
            assertThat(CpuClock.ofJitCompilers(sleep.pid()).cpuNs()).isZero();
        } finally {
            sleep.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
