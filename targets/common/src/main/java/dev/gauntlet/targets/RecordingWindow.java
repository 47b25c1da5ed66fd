package dev.gauntlet.targets;

import jdk.management.jfr.FlightRecorderMXBean;
import jdk.management.jfr.RecordingInfo;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * A window of this JVM's own JFR recording, streamed out through the admin port: what the runner
 * copies with {@code jcmd JFR.dump begin= end=} from a target on its own machine, for a target it
 * cannot attach to (a pod on another node). JFR hands out whole chunks, so the window may hold a
 * little more than asked; readers filter by time.
 */
final class RecordingWindow {
    /** The recording {@code -XX:StartFlightRecording=name=gauntlet} started, as the runner names it. */
    static final String RECORDING = "gauntlet";
    private static final int BLOCK_BYTES = 1 << 20;

    private RecordingWindow() {
    }

    /** The running recording's id, if this JVM records under {@value #RECORDING}. */
    static Optional<Long> recordingId() {
        FlightRecorderMXBean recorder = ManagementFactory.getPlatformMXBean(FlightRecorderMXBean.class);
        return recorder.getRecordings().stream().filter(r -> r.getName().equals(RECORDING) && r.getState().equals("RUNNING"))
                .map(RecordingInfo::getId).findFirst();
    }

    /**
     * Writes what the recording holds between {@code from} and {@code to} to {@code out}, block by block. A running
     * recording streams only its finished chunks, so it is read through a stopped clone, which ends the chunk in
     * progress as {@code jcmd JFR.dump} does.
     */
    static void copy(long recordingId, Instant from, Instant to, OutputStream out) throws IOException {
        FlightRecorderMXBean recorder = ManagementFactory.getPlatformMXBean(FlightRecorderMXBean.class);
        long clone = recorder.cloneRecording(recordingId, true);
        try {
            long stream = recorder.openStream(clone, Map.of("startTime", from.toString(), "endTime", to.toString(),
                    "blockSize", Integer.toString(BLOCK_BYTES)));
            try {
                for (byte[] block = recorder.readStream(stream); block != null; block = recorder.readStream(stream)) {
                    out.write(block);
                }
            } finally {
                recorder.closeStream(stream);
            }
        } finally {
            recorder.closeRecording(clone);
        }
    }
}
