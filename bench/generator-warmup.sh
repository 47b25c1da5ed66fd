#!/usr/bin/env bash
# A cold generator JVM against a warm one: the open loop at 50,000/s against nginx on 127.0.0.1 (nginx
# pinned to the first CPU, the generator to the last), each run a fresh generator JVM, in three set-ups
# taken in turn each round:
#   cold 1s   --no-jit-warmup --warmup 1s   (the server suite's old overhead case: its JIT compiled in the run)
#   cold 3s   --no-jit-warmup --warmup 3s   (the longer warm-up a user would try by hand)
#   warm 1s   --jit-warmup --warmup 1s      (the default: JitWarmup against its own loopback sink first)
# Prints each run's loop-lateness p99, response p99, verdict, the JIT warm-up's windows and time, and the
# platform's hiccup p99 on the generator's CPU beside them; then the medians and the ratios cold/warm.
# A benchmark, not a test: nothing asserts. Uses the working tree's build (./gauntlet builds it).
#
# Usage: bench/generator-warmup.sh [ROUNDS]   (default 5; env PORT=18080, RATE=50000)
set -euo pipefail

ROUNDS=${1:-5}
PORT=${PORT:-18080}
RATE=${RATE:-50000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/gauntlet-warmup.XXXXXX)
URL="http://127.0.0.1:$PORT/hello"
SERVER_CPU=0
CLIENT_CPU=$(( $(nproc) - 1 ))
command -v nginx >/dev/null || { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null; }
"$ROOT/gauntlet" targets >/dev/null   # builds what is missing
JAVA="$("$ROOT/.mvn/find-jdk")/bin/java"
CP="$ROOT/loadgen/target/gauntlet-loadgen.jar:$ROOT/loadgen/target/lib/*"

sed -e "s#@PORT@#$PORT#; s#@DIR@#$WORK#g" "$ROOT/bench/nginx.conf" > "$WORK/nginx.conf"
taskset -c "$SERVER_CPU" nginx -c "$WORK/nginx.conf" -e "$WORK/error.log" &
NGINX_PID=$!
trap 'kill "$NGINX_PID" 2>/dev/null; wait "$NGINX_PID" 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 50); do curl -sf "$URL" >/dev/null 2>&1 && break; sleep 0.1; done

load() {  # ARGS...: one run's summary as JSON, a fresh generator JVM
  taskset -c "$CLIENT_CPU" "$JAVA" -Xms1g -Xmx1g -XX:+UseG1GC -cp "$CP" dev.gauntlet.loadgen.LoadCommand "$URL" --json \
    --rate "$RATE" --duration 3s "$@" 2>>"$WORK/gauntlet.log"
}
field() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
median() { python3 -c "import statistics,sys; print(round(statistics.median(float(x) for x in sys.argv[1:]), 2))" "$@"; }
ratio() { python3 -c "import sys; print(round(float(sys.argv[1]) / float(sys.argv[2]), 2))" "$1" "$2"; }

echo "# $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) CPUs ($(uname -r)), load average $(cut -d' ' -f1-3 /proc/loadavg)," \
     "commit $(git -C "$ROOT" rev-parse --short HEAD); open loop $RATE/s against nginx, 3 s measured"
declare -A LATE RESPONSE
SETUPS=("cold-1s:--no-jit-warmup --warmup 1s" "cold-3s:--no-jit-warmup --warmup 3s" "warm-1s:--jit-warmup --warmup 1s")
for r in $(seq "$ROUNDS"); do
  for setup in "${SETUPS[@]}"; do
    name=${setup%%:*}; args=${setup#*:}
    # shellcheck disable=SC2086
    s=$(load $args)
    late=$(echo "$s" | field 'round(d["loopLateness"]["p99Ms"], 2)')
    resp=$(echo "$s" | field 'round(d["responseTime"]["p99Ms"], 2)')
    LATE[$name]+="$late "; RESPONSE[$name]+="$resp "
    echo "  round $r $name: loop lateness p99 $late ms, response p99 $resp ms, $(echo "$s" | field 'd["verdict"]')," \
         "hiccup p99 $(echo "$s" | field 'round(d["generatorHiccups"]["p99Ms"], 2)') ms," \
         "JIT warm-up $(echo "$s" | field '"%d windows, %.1f s" % (len(d["generatorWarmup"]["windows"]), d["generatorWarmup"]["durationMs"] / 1000) if d.get("generatorWarmup") else "none"')"
  done
done
for name in cold-1s cold-3s warm-1s; do
  # shellcheck disable=SC2086
  echo "$name: median loop lateness p99 $(median ${LATE[$name]}) ms, response p99 $(median ${RESPONSE[$name]}) ms"
done
# shellcheck disable=SC2086
for cold in cold-1s cold-3s; do
  echo "$cold / warm-1s: loop lateness p99 $(ratio "$(median ${LATE[$cold]})" "$(median ${LATE[warm-1s]})")," \
       "response p99 $(ratio "$(median ${RESPONSE[$cold]})" "$(median ${RESPONSE[warm-1s]})")"
done
