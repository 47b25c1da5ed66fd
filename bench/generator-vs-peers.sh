#!/usr/bin/env bash
# Gauntlet's load generator against its peers, on this machine, against nginx on 127.0.0.1:
#   1. closed loop, 50 connections: Gauntlet vs wrk, alternately, requests/s;
#   2. one keep-alive connection: Gauntlet vs ab -k -c1, mean round trip;
#   3. open loop at 20,000 requests/s: Gauntlet's schedule-lag p99;
#   4. 19,000 connections held: Gauntlet's peak heap (with -Xmx512m).
# Prints medians of the alternations and the ratios. Benchmarks, not tests: nothing asserts.
#
# Usage: bench/generator-vs-peers.sh [ROUNDS]   (default 3; env PORT=18080, SECONDS_PER_RUN=5)
set -euo pipefail

ROUNDS=${1:-3}
PORT=${PORT:-18080}
RUN_S=${SECONDS_PER_RUN:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/gauntlet-bench.XXXXXX)
URL="http://127.0.0.1:$PORT/hello"

need() {
  if ! command -v "$1" >/dev/null 2>&1; then
    echo "installing $2 (for $1)" >&2
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
  fi
}
need wrk wrk
need ab apache2-utils
need nginx nginx

JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JAVA="$JAVA_HOME/bin/java"
JAR="$ROOT/loadgen/target/gauntlet-loadgen.jar"
if [ ! -f "$JAR" ] || [ -n "$(find "$ROOT/loadgen/src/main" "$ROOT/api/src/main" -newer "$JAR" -print -quit)" ]; then
  echo "building the generator" >&2
  (cd "$ROOT" && JAVA_HOME="$JAVA_HOME" ./mvnw -B -ntp -q -pl loadgen -am package -DskipTests) >&2
fi
gauntlet() {
  "$JAVA" -Xmx512m -cp "$JAR:$ROOT/loadgen/target/lib/*" dev.gauntlet.loadgen.LoadCommand "$URL" --json "$@" 2>>"$WORK/gauntlet.log"
}
json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
median() { python3 -c "import statistics,sys; print(round(statistics.median(float(x) for x in sys.argv[1:]), 3))" "$@"; }
ratio() { python3 -c "import sys; print(round(float(sys.argv[1]) / float(sys.argv[2]), 3))" "$1" "$2"; }

sed -e "s#@PORT@#$PORT#; s#@DIR@#$WORK#g" "$ROOT/bench/nginx.conf" > "$WORK/nginx.conf"
nginx -c "$WORK/nginx.conf" -e "$WORK/error.log" &
NGINX_PID=$!
trap 'kill "$NGINX_PID" 2>/dev/null; wait "$NGINX_PID" 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 50); do
  curl -sf "$URL" >/dev/null 2>&1 && break
  sleep 0.1
done
curl -sf "$URL" >/dev/null || { echo "nginx did not come up on $URL" >&2; exit 1; }

echo "# $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $("$JAVA" -version 2>&1 | head -1); $(wrk --version 2>&1 | head -1 | cut -d' ' -f1-2); $(ab -V | head -1); $(nginx -v 2>&1)"

echo "## closed loop, 50 connections, ${RUN_S}s each, $ROUNDS alternations (wrk -t1: its best here)"
G=(); W=()
for r in $(seq "$ROUNDS"); do
  g=$(gauntlet --connections 50 --warmup 2s --duration "${RUN_S}s" | json 'd["achievedRatePerSec"]')
  w=$(wrk -t1 -c50 -d"${RUN_S}s" "$URL" | awk '/Requests\/sec/ {print $2}')
  echo "round $r: gauntlet $g req/s, wrk $w req/s"
  G+=("$g"); W+=("$w")
done
GM=$(median "${G[@]}"); WM=$(median "${W[@]}")
CLOSED_RATIO=$(ratio "$GM" "$WM")
echo "median: gauntlet $GM req/s, wrk $WM req/s, ratio gauntlet/wrk = $CLOSED_RATIO (target >= 1.0)"

echo "## one keep-alive connection, $ROUNDS alternations (mean round trip = wall time / requests, as ab counts it)"
G=(); A=()
for r in $(seq "$ROUNDS"); do
  out=$(gauntlet --connections 1 --warmup 2s --duration "${RUN_S}s")
  g=$(echo "$out" | json '1000 / d["achievedRatePerSec"]')
  a=$(ab -k -c1 -n 50000 "$URL" 2>/dev/null | awk '/Time per request:.*\(mean\)$/ {print $4}')
  echo "round $r: gauntlet $g ms (its measured mean response $(echo "$out" | json 'd["responseTime"]["meanMs"]') ms), ab $a ms"
  G+=("$g"); A+=("$a")
done
GM=$(median "${G[@]}"); AM=$(median "${A[@]}")
ONE_RATIO=$(ratio "$GM" "$AM")
echo "median: gauntlet $GM ms, ab -k -c1 $AM ms, ratio gauntlet/ab = $ONE_RATIO (target <= 1.0)"

echo "## open loop, 20,000 requests/s, exponential, ${RUN_S}s after a 2s warm-up"
L=()
for r in $(seq "$ROUNDS"); do
  out=$(gauntlet --rate 20000 --warmup 2s --duration "${RUN_S}s")
  lag=$(echo "$out" | json 'd["scheduleLag"]["p99Ms"]')
  rate=$(echo "$out" | json 'd["achievedRatePerSec"]')
  echo "round $r: achieved $rate req/s, schedule lag p99 $lag ms, p99.9 $(echo "$out" | json 'd["scheduleLag"]["p999Ms"]') ms"
  L+=("$lag")
done
echo "median schedule-lag p99: $(median "${L[@]}") ms (target <= 1 ms)"

echo "## 19,000 connections, closed loop, -Xmx512m (a 15s warm-up lets nginx accept them all)"
out=$(gauntlet --connections 19000 --warmup 15s --duration "${RUN_S}s" --connect-timeout 10s)
echo "connections peak $(echo "$out" | json 'd["connectionsPeak"]'), achieved $(echo "$out" | json 'd["achievedRatePerSec"]') req/s," \
     "errors $(echo "$out" | json 'sum(d["errors"].values())'), heap peak $(echo "$out" | json 'd["generatorCost"]["heapUsedMaxBytes"] >> 20') MB (target <= 512 MB)"

echo "## ratios: closed loop gauntlet/wrk $CLOSED_RATIO, one connection gauntlet/ab $ONE_RATIO"
