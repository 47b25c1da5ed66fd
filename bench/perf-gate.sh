#!/usr/bin/env bash
# The performance gate: Gauntlet's generator CPU per request against wrk2's (open loop at 10,000 and 50,000/s over
# 100 connections) and wrk's (closed loop, 50 connections, flat out), on 127.0.0.1. Each pair runs both clients at
# once on the last CPU, each against an nginx of its own on the first (so each one's requests are counted apart), so
# a step of the machine's speed falls on both alike; Gauntlet's generator is kept warm in the gate's JVM, the peer is a
# fresh process, and both are measured over the same window. A pair off the case's rate, or in which Gauntlet's JIT
# compiled, is left out. Each ratio gets a 95 % interval over the pairs, and the gate fails when a ratio is worse than
# its bound in docs/benchmarks.md beyond that interval, when an interval is too wide to see a 10 % change, or when a
# case could not be measured. About 90 s; nothing else running.
#
# Usage: bench/perf-gate.sh [--cases closed,open-50k,open-10k] [--seconds 70] [--min-pairs 12] [--max-width 0.10]
#        (env PORT=18090 and the next port for the peer's nginx, WRK2=a built wrk2, WRK2_SRC=a wrk2 checkout when github.com cannot be reached)
# Exit 0: pass; 1: a case failed; 2: bad input or a missing tool.
set -euo pipefail

PORT=${PORT:-18090}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/gauntlet-gate.XXXXXX)
SERVER_CPU=0
CLIENT_CPU=$(( $(nproc) - 1 ))

# shellcheck source=lib.sh
source "$ROOT/bench/lib.sh"
need wrk wrk
need nginx nginx
need curl curl
build_wrk2
BENCH_JAR="$ROOT/bench/target/gauntlet-bench.jar"
if [ ! -f "$BENCH_JAR" ] || [ -n "$(find "$ROOT/bench/src/main" "$ROOT/loadgen/src/main" "$ROOT/api/src/main" \
    "$ROOT/hiccup/src/main" -newer "$BENCH_JAR" -print -quit)" ]; then
  echo "building the gate" >&2
  (cd "$ROOT" && JAVA_HOME="$JAVA_HOME" ./mvnw -B -ntp -q -pl bench -am package -DskipTests) >&2
fi
PEER_PORT=$((PORT + 1))
start_nginx "$PORT"
start_nginx "$PEER_PORT"

echo "# $(date -u +%Y-%m-%dT%H:%MZ) at $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD || echo +dirty)" \
     "on $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)), load average $(cut -d' ' -f1-3 /proc/loadavg);" \
     "nginx on CPU $SERVER_CPU, clients on CPU $CLIENT_CPU"
client "$JAVA" -Xms512m -Xmx512m -XX:+UseG1GC -XX:-UseDynamicNumberOfCompilerThreads -cp "$BENCH_JAR:$ROOT/bench/target/lib/*" dev.gauntlet.bench.PerfGate \
  --url "http://127.0.0.1:$PORT/hello" --status-url "http://127.0.0.1:$PORT/nginx_status" \
  --peer-url "http://127.0.0.1:$PEER_PORT/hello" --peer-status-url "http://127.0.0.1:$PEER_PORT/nginx_status" \
  --wrk2 "$WRK2" --wrk "$(command -v wrk)" --bounds "$ROOT/docs/benchmarks.md" "$@"
