#!/usr/bin/env bash
# What the generator still compiles in the first measured second of `load`, and how soon it starts measuring: each
# run a fresh `./gauntlet load` against the dummy target on 127.0.0.1, with a JFR recording of every JIT compilation
# (jdk.Compilation, threshold 0); prints, per run, the seconds from the command to the measured phase's start, the
# JIT warm-up's length, and the compile milliseconds (summed over the compiler threads) in the first three measured
# seconds. Run it once per build or set-up to compare, e.g. with and without --no-jit-warmup.
# A benchmark, not a test: nothing asserts. Uses the working tree's build (./gauntlet builds it).
#
# Usage: bench/first-second-jit.sh RUNS LOAD-ARGS...
#   bench/first-second-jit.sh 3 --connections 50 --warmup 2s --duration 4s
#   bench/first-second-jit.sh 3 --rate 10000 --warmup 2s --duration 4s --no-jit-warmup
set -euo pipefail

RUNS=${1:?usage: bench/first-second-jit.sh RUNS LOAD-ARGS...}
shift
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/gauntlet-first-second.XXXXXX)
"$ROOT/gauntlet" targets >/dev/null   # builds what is missing
JFR="$("$ROOT/.mvn/find-jdk")/bin/jfr"
cat > "$WORK/compilations.jfc" <<'JFC'
<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0" label="compilations" description="every JIT compilation">
  <event name="jdk.Compilation"><setting name="enabled">true</setting><setting name="threshold">0 ms</setting></event>
</configuration>
JFC

GAUNTLET_NO_BUILD=1 "$ROOT/gauntlet" target dummy >"$WORK/target.out" 2>&1 &
TARGET_PID=$!
trap 'kill "$TARGET_PID" 2>/dev/null; wait "$TARGET_PID" 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 150); do grep -q READY "$WORK/target.out" 2>/dev/null && break; sleep 0.2; done
PORT=$(sed -n 's/.*READY port=\([0-9]*\).*/\1/p' "$WORK/target.out")
[[ -n "$PORT" ]] || { echo "the dummy target did not start: $(tail -1 "$WORK/target.out")" >&2; exit 1; }

for run in $(seq "$RUNS"); do
  dir="$WORK/run$run"
  mkdir -p "$dir"
  startEpoch=$(date +%s.%N)
  JAVA_TOOL_OPTIONS="-XX:StartFlightRecording:filename=$dir/rec.jfr,settings=$WORK/compilations.jfc" GAUNTLET_NO_BUILD=1 \
    "$ROOT/gauntlet" load "http://127.0.0.1:$PORT/hello" "$@" --output "$dir" >"$dir/out.txt" 2>&1 \
    || { echo "run $run: load failed: $(tail -1 "$dir/out.txt")"; continue; }
  "$JFR" print --json --events jdk.Compilation "$dir/rec.jfr" >"$dir/compilations.json"
  python3 - "$dir" "$startEpoch" "$run" <<'PY'
import datetime, json, sys
run_dir, start_epoch, run = sys.argv[1], float(sys.argv[2]), sys.argv[3]
def epoch(iso):
    return datetime.datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()
def seconds(duration):  # ISO-8601, PT0.012S; a compilation of a minute or more does not happen here
    return float(duration[2:-1]) if duration.startswith("PT") and duration.endswith("S") and "M" not in duration else 0.0
summary = json.load(open(run_dir + "/summary.json"))
steady = summary.get("steadiness")
warmup_ms = steady["warmupMs"] if steady else summary["spec"]["warmupMs"]
measure_start = epoch(summary["startedAt"]) + warmup_ms / 1000
events = json.load(open(run_dir + "/compilations.json"))["recording"]["events"]
spans = [(epoch(e["values"]["startTime"]), seconds(e["values"]["duration"])) for e in events]
def compiled_ms(from_s, to_s):
    return 1000 * sum(max(0.0, min(start + length, to_s) - max(start, from_s)) for start, length in spans)
jit = summary.get("generatorWarmup")
print("run %s: measuring %.1f s after the command; JIT warm-up %s; compile ms in measured seconds 1-3: %s"
      % (run, measure_start - start_epoch,
         "%.1f s (%s)" % (jit["durationMs"] / 1000, "settled" if jit["settled"] else "bound reached") if jit else "none",
         ", ".join("%.0f" % compiled_ms(measure_start + k, measure_start + k + 1) for k in range(3))))
PY
done
