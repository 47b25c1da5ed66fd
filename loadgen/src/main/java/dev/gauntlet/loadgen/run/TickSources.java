package dev.gauntlet.loadgen.run;

import dev.gauntlet.loadgen.measure.LatencyRecorder;
import dev.gauntlet.loadgen.measure.SteadyJudge;

import java.io.PrintStream;

/**
 * What each second's tick of a run reads and where it says so, shared by the {@link IntervalTicker} and its
 * {@link WarmupWindows}: the engine threads, their latency recorder, the platform's hiccups, the steady-state judge,
 * the tick schedule, and the progress stream.
 */
record TickSources(EngineThreads engine, LatencyRecorder recorder, HiccupIntervals hiccups, SteadyJudge judge,
                   TickSchedule ticks, PrintStream progress) {
}
