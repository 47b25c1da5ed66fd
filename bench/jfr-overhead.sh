#!/usr/bin/env bash
# What the runner's JFR recording costs a target: the same target JVM with and without the
# recording Gauntlet starts in every target (JfrRecording with runner/.../gauntlet.jfc), and with
# JFR's own "default" settings for comparison, driven by wrk: closed loop, 50 connections, no wait
# (the heaviest load per request), or many connections whose requests wait in the server (where
# JFR's default records each wait over 20 ms). Target pinned to the first CPU, wrk to the last; the
# three set-ups alternate so the machine's drift hits them alike.
# Prints each round's requests/s, the medians and the ratios to no recording. A benchmark, not a test.
#
# Usage: bench/jfr-overhead.sh [ROUNDS] [SERVER] [MODULE]   (SERVER: a catalogue serverClass)
#   default: 5 rounds, dev.gauntlet.targets.jetty.JettyTargets#handlerSync in targets/jetty;
#   env SECONDS_PER_RUN=5, CONNECTIONS=50, WAIT_MS=0 (e.g. CONNECTIONS=500 WAIT_MS=50: waiting requests)
set -euo pipefail

ROUNDS=${1:-5}
SERVER=${2:-dev.gauntlet.targets.jetty.JettyTargets#handlerSync}
MODULE=${3:-targets/jetty}
RUN_S=${SECONDS_PER_RUN:-5}
CONNECTIONS=${CONNECTIONS:-50}
WAIT_MS=${WAIT_MS:-0}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/gauntlet-jfr-bench.XXXXXX)
SERVER_CPU=0
CLIENT_CPU=$(( $(nproc) - 1 ))
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
# The recording exactly as the runner starts it in targets (JfrRecording.continuous), and JFR's default.
JFR_OPTIONS=(-Xlog:jfr+startup=off "-XX:StartFlightRecording=name=gauntlet,settings=$ROOT/runner/src/main/resources/dev/gauntlet/runner/gauntlet.jfc,maxsize=256m")
DEFAULT_OPTIONS=(-Xlog:jfr+startup=off "-XX:StartFlightRecording=name=gauntlet,settings=default,maxsize=256m")

command -v wrk >/dev/null || { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
[ -f "$ROOT/$MODULE/target/lib/gauntlet-target-common-0.1.0-SNAPSHOT.jar" ] || (cd "$ROOT" && ./mvnw -B -ntp -q -DskipTests package)
JAR=$(ls "$ROOT/$MODULE"/target/gauntlet-target-*.jar | head -1)
CLASSPATH="$JAR:$ROOT/$MODULE/target/lib/*"

PID=""
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

# Starts the target with the given extra JVM options (PID), waits for READY, sets PORT.
start_target() {
  local log="$WORK/target.log"
  PORT=""
  taskset -c "$SERVER_CPU" "$JAVA" -Xms512m -Xmx512m "$@" -cp "$CLASSPATH" dev.gauntlet.targets.TargetMain \
      --server "$SERVER" --bind 127.0.0.1 --port 0 >"$log" 2>&1 &
  PID=$!
  for _ in $(seq 1 200); do
    grep -q '^READY' "$log" 2>/dev/null && break
    sleep 0.1
  done
  PORT=$(sed -n 's/^READY port=\([0-9]*\).*/\1/p' "$log")
}

# One round: a warm-up of 2 s, then the measured RUN_S seconds; prints requests/s.
round() {
  start_target "$@"
  [ -n "$PORT" ] || { echo "the target did not start; see $WORK/target.log" >&2; exit 2; }
  local url="http://127.0.0.1:$PORT/hello?wait=$WAIT_MS"
  taskset -c "$CLIENT_CPU" wrk -t1 -c"$CONNECTIONS" -d2s "$url" >/dev/null
  taskset -c "$CLIENT_CPU" wrk -t1 -c"$CONNECTIONS" -d"${RUN_S}s" "$url" | awk '/Requests\/sec/ {print $2}' >"$WORK/rate"
  kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

echo "JFR's cost to $SERVER: wrk -t1 -c$CONNECTIONS, wait $WAIT_MS ms, ${RUN_S} s per round, target on CPU $SERVER_CPU, wrk on CPU $CLIENT_CPU; load average $(cut -d' ' -f1 /proc/loadavg)"
: >"$WORK/with"; : >"$WORK/without"; : >"$WORK/default"
for r in $(seq 1 "$ROUNDS"); do
  round; without=$(cat "$WORK/rate")
  round "${JFR_OPTIONS[@]}"; with=$(cat "$WORK/rate")
  round "${DEFAULT_OPTIONS[@]}"; default=$(cat "$WORK/rate")
  echo "$without" >>"$WORK/without"; echo "$with" >>"$WORK/with"; echo "$default" >>"$WORK/default"
  printf 'round %d: without JFR %8.0f req/s, gauntlet.jfc %8.0f req/s, JFR default %8.0f req/s\n' "$r" "$without" "$with" "$default"
done
m_without=$(median <"$WORK/without")
m_with=$(median <"$WORK/with")
m_default=$(median <"$WORK/default")
printf 'median: without %.0f req/s, gauntlet.jfc %.0f req/s (ratio %.3f), JFR default %.0f req/s (ratio %.3f)\n' \
  "$m_without" "$m_with" "$(awk -v a="$m_with" -v b="$m_without" 'BEGIN {print a / b}')" \
  "$m_default" "$(awk -v a="$m_default" -v b="$m_without" 'BEGIN {print a / b}')"
