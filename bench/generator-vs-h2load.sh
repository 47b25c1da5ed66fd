#!/usr/bin/env bash
# Gauntlet's load generator against h2load (nghttp2) on HTTPS and HTTP/2, on this machine, against nginx on 127.0.0.1
# with a self-signed certificate, nginx pinned to the first CPU and every client to the last (taskset), closed loop,
# the same connections × streams, alternately:
#   1. h2 over TLS (ALPN), 4 connections × 16 streams: requests/s;
#   2. h2c (prior knowledge), 4 connections × 16 streams: requests/s;
#   3. HTTPS/1.1, 50 connections (h2load --h1): requests/s.
# (A TLS handshake per request has no like in h2load, which connects each client once: the protocols suite's
# handshake-8c scenario measures it.)
# Beside every round, the platform's hiccup p99 on the client CPU during it (Gauntlet's own meter, or a meter JVM beside
# h2load): the noise floor the round ran on. Prints medians of the alternations and the ratios Gauntlet / h2load.
# Benchmarks, not tests: nothing asserts.
#
# Usage: bench/generator-vs-h2load.sh [ROUNDS]   (default 3; env PORT=18443 (h2c on PORT+1), SECONDS_PER_RUN=5,
#        SECTIONS="h2 h2c https1")
set -euo pipefail

ROUNDS=${1:-3}
PORT=${PORT:-18443}
H2C_PORT=$((PORT + 1))
RUN_S=${SECONDS_PER_RUN:-5}
SECTIONS=${SECTIONS:-h2 h2c https1}
on() { [[ " $SECTIONS " == *" $1 "* ]]; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/gauntlet-bench.XXXXXX)
SERVER_CPU=0
CLIENT_CPU=$(( $(nproc) - 1 ))

# shellcheck source=lib.sh
source "$ROOT/bench/lib.sh"
need h2load nghttp2-client
need nginx nginx
need openssl openssl
need curl curl

gauntlet() {
  local url=$1; shift
  if ! client "$JAVA" -Xmx512m -cp "$CP" dev.gauntlet.loadgen.LoadCommand "$url" --json "$@" 2>"$WORK/gauntlet.log"; then
    echo "gauntlet load failed: $(tail -2 "$WORK/gauntlet.log")" >&2
    exit 1
  fi
}
# h2load for RUN_S seconds after a 2 s warm-up (as Gauntlet's): its requests/s, or its last lines on stderr and 0.
h2load_rate() {
  local out
  out=$(client h2load --warm-up-time=2 -D "$RUN_S" "$@" 2>&1) || true
  local rate
  rate=$(echo "$out" | sed -n 's/^finished in [^,]*, \([0-9.]*\) req\/s.*/\1/p')
  if [ -z "$rate" ] || ! echo "$out" | grep -q " 0 failed, 0 errored"; then
    echo "h2load: $(echo "$out" | tail -3 | tr '\n' ' ')" >&2
  fi
  echo "${rate:-0}"
}

for p in "$PORT" "$H2C_PORT"; do
  if curl -sk -o /dev/null "https://127.0.0.1:$p/" 2>/dev/null || curl -s -o /dev/null "http://127.0.0.1:$p/" 2>/dev/null; then
    echo "something already listens on 127.0.0.1:$p; choose another port with PORT=..." >&2
    exit 2
  fi
done
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=localhost" \
  -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" -keyout "$WORK/key.pem" -out "$WORK/cert.pem" 2>/dev/null
sed -e "s#@PORT@#$PORT#; s#@H2C_PORT@#$H2C_PORT#; s#@DIR@#$WORK#g" "$ROOT/bench/nginx-tls.conf" > "$WORK/nginx.conf"
taskset -c "$SERVER_CPU" nginx -c "$WORK/nginx.conf" -e "$WORK/error.log" &
NGINX_PID=$!
trap 'kill "$NGINX_PID" 2>/dev/null; wait "$NGINX_PID" 2>/dev/null; rm -rf "$WORK"' EXIT
HTTPS="https://127.0.0.1:$PORT/hello"
H2C="http://127.0.0.1:$H2C_PORT/hello"
for _ in $(seq 50); do
  curl -sf --cacert "$WORK/cert.pem" "$HTTPS" >/dev/null 2>&1 && break
  sleep 0.1
done
curl -sf --cacert "$WORK/cert.pem" "$HTTPS" >/dev/null || { echo "nginx did not come up on $HTTPS" >&2; exit 1; }

echo "# $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# nginx on CPU $SERVER_CPU, clients on CPU $CLIENT_CPU; $("$JAVA" -version 2>&1 | head -1); $(h2load --version | head -1); $(nginx -v 2>&1); $(openssl version)"

# One comparison: NAME, Gauntlet's flags, h2load's flags and URL; ROUNDS alternations, medians and the ratio.
compare() {
  local name=$1 gflags=$2 hflags=$3 url=$4
  echo "## $name, ${RUN_S}s each after 2s of warm-up, $ROUNDS alternations"
  local G=() H=() GF=() HF=()
  for r in $(seq "$ROUNDS"); do
    # shellcheck disable=SC2086
    out=$(gauntlet "$url" $gflags --warmup 2s --duration "${RUN_S}s")
    g=$(echo "$out" | json 'd["achievedRatePerSec"]')
    gerr=$(echo "$out" | json 'sum(d["errors"].values())')
    gf=$(echo "$out" | json 'd["generatorHiccups"]["p99Ms"]')
    meter_start $((RUN_S + 3))
    # shellcheck disable=SC2086
    h=$(h2load_rate $hflags "$url")
    meter_wait
    hf=$METER_P99
    echo "  round $r: gauntlet $g/s ($gerr errors, hiccup p99 $gf ms)   h2load $h/s (hiccup p99 $hf ms)"
    G+=("$g"); H+=("$h"); GF+=("$gf"); HF+=("$hf")
  done
  local gm hm
  gm=$(median "${G[@]}"); hm=$(median "${H[@]}")
  echo "  median: gauntlet $gm/s, h2load $hm/s; ratio gauntlet/h2load $(ratio "$gm" "$hm"); hiccup p99 medians $(median "${GF[@]}") / $(median "${HF[@]}") ms"
}

on h2 && compare "h2 over TLS, 4 connections x 16 streams" "--http2 --connections 4 --streams 16 --insecure" "-c 4 -m 16" "$HTTPS"
on h2c && compare "h2c (prior knowledge), 4 connections x 16 streams" "--http2 --connections 4 --streams 16" "-c 4 -m 16" "$H2C"
on https1 && compare "HTTPS/1.1, 50 connections" "--connections 50 --insecure" "--h1 -c 50 -m 1" "$HTTPS"
