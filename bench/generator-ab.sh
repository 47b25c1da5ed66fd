#!/usr/bin/env bash
# The built-in engine before and after a change: the generator built at git revision REV against
# the working tree's, alternately, against nginx on 127.0.0.1 (nginx pinned to the first CPU, the
# generator to the last), on the set-ups where an engine change would show:
#   1. closed loop, 50 connections: requests/s;
#   2. one keep-alive connection: wall time per request;
#   3. open loop at 20,000/s: response p99, schedule-lag p99 and the engine thread's CPU per request.
# Beside each, the platform's hiccup p99 on the generator's CPU during the run. Prints each round,
# the medians and the ratios NEW/OLD. A benchmark, not a test: nothing asserts.
#
# Usage: bench/generator-ab.sh REV [ROUNDS]   (default 5; env PORT=18080, SECONDS_PER_RUN=4)
set -euo pipefail

REV=${1:?usage: bench/generator-ab.sh REV [ROUNDS]}
ROUNDS=${2:-5}
PORT=${PORT:-18080}
RUN_S=${SECONDS_PER_RUN:-4}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/gauntlet-ab.XXXXXX)
URL="http://127.0.0.1:$PORT/hello"
SERVER_CPU=0
CLIENT_CPU=$(( $(nproc) - 1 ))
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JAVA="$JAVA_HOME/bin/java"
command -v nginx >/dev/null || { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null; }

build() { (cd "$1" && JAVA_HOME="$JAVA_HOME" ./mvnw -B -ntp -q -pl loadgen -am package -DskipTests) >&2; }
echo "building the generator at $REV and in the working tree" >&2
git -C "$ROOT" worktree add -q --detach "$WORK/old" "$REV"
build "$WORK/old"
build "$ROOT"
cp_of() { echo "$1/loadgen/target/gauntlet-loadgen.jar:$1/loadgen/target/lib/*"; }
OLD_CP=$(cp_of "$WORK/old"); NEW_CP=$(cp_of "$ROOT")
load() {  # CLASSPATH ARGS...: one run's summary as JSON
  local cp=$1; shift
  taskset -c "$CLIENT_CPU" "$JAVA" -Xmx512m -cp "$cp" dev.gauntlet.loadgen.LoadCommand "$URL" --json --warmup 2s \
    --duration "${RUN_S}s" "$@" 2>>"$WORK/gauntlet.log"
}
json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
median() { python3 -c "import statistics,sys; print(round(statistics.median(float(x) for x in sys.argv[1:]), 4))" "$@"; }
ratio() { python3 -c "import sys; print(round(float(sys.argv[1]) / float(sys.argv[2]), 3))" "$1" "$2"; }

sed -e "s#@PORT@#$PORT#; s#@DIR@#$WORK#g" "$ROOT/bench/nginx.conf" > "$WORK/nginx.conf"
taskset -c "$SERVER_CPU" nginx -c "$WORK/nginx.conf" -e "$WORK/error.log" &
NGINX_PID=$!
trap 'kill "$NGINX_PID" 2>/dev/null; wait "$NGINX_PID" 2>/dev/null; git -C "$ROOT" worktree remove --force "$WORK/old"; rm -rf "$WORK"' EXIT
for _ in $(seq 50); do curl -sf "$URL" >/dev/null 2>&1 && break; sleep 0.1; done

echo "# $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); OLD = $REV ($(git -C "$ROOT" rev-parse --short "$REV")), NEW = the working tree"
# NAME  EXPRESSION-ON-THE-SUMMARY  ARGS...
compare() {
  local name=$1 expr=$2; shift 2
  local olds=() news=()
  for r in $(seq "$ROUNDS"); do
    local o n
    o=$(load "$OLD_CP" "$@"); n=$(load "$NEW_CP" "$@")
    olds+=("$(echo "$o" | json "$expr")"); news+=("$(echo "$n" | json "$expr")")
    echo "  round $r: old ${olds[-1]} (hiccup p99 $(echo "$o" | json 'd["generatorHiccups"]["p99Ms"]') ms)," \
         "new ${news[-1]} (hiccup p99 $(echo "$n" | json 'd["generatorHiccups"]["p99Ms"]') ms)"
  done
  local om nm; om=$(median "${olds[@]}"); nm=$(median "${news[@]}")
  echo "$name: median old $om, new $nm, new/old $(ratio "$nm" "$om")"
}
compare "closed loop 50 connections, requests/s" 'round(d["achievedRatePerSec"])' --connections 50
compare "one connection, wall ms per request" 'round(1000 / d["achievedRatePerSec"], 4)' --connections 1
compare "open loop 20,000/s, response p99 ms" 'd["responseTime"]["p99Ms"]' --rate 20000
compare "open loop 20,000/s, schedule-lag p99 ms" 'd["scheduleLag"]["p99Ms"]' --rate 20000
compare "open loop 20,000/s, engine CPU µs per request" \
  'round(d["generatorCost"]["engineCpuPercent"] / 100 * d["measuredSec"] * 1e6 / d["sent"], 2)' --rate 20000
