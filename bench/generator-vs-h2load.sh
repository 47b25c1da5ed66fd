#!/usr/bin/env bash
# Gauntlet's load generator against h2load (nghttp2) on HTTPS and HTTP/2, on this machine, against nginx on 127.0.0.1
# with a self-signed certificate, nginx pinned to the first CPU and every client to the last (taskset), closed loop,
# the same connections × streams, alternately:
#   1. h2 over TLS (ALPN), 4 connections × 16 streams (H2_CONNECTIONS × H2_STREAMS): requests/s;
#   2. h2c (prior knowledge), the same connections × streams: requests/s;
#   3. HTTPS/1.1, 50 connections (h2load --h1): requests/s.
# (A TLS handshake per request has no like in h2load, which connects each client once: the protocols suite's
# handshake-8c scenario measures it.)
# Beside every round, each client's CPU time per request over its measured seconds but the first and the last (from
# /proc), and nginx's over the same seconds: with nginx's one worker the bottleneck, the rates are nginx's, the
# client's figure says which client would go further, and nginx's says which client's traffic costs the server more.
# And the platform's hiccup p99 on the client CPU during it (Gauntlet's own meter, or a meter JVM beside h2load): the
# noise floor the round ran on. Prints medians of the alternations, the ratios Gauntlet / h2load, and each round's.
# Gauntlet warms up until steady (--warmup-max), its JIT idle included: a JVM pinned to one CPU still compiles 5-10 s
# after its start, and a fixed 2 s warm-up measured its compiler's share of the CPU along with it.
# Then each case again with both clients held to the same CPU budget (CLIENT_BUDGET of a CPU, a cgroup v1 CPU quota),
# so that the client, not nginx, is the bottleneck and the rates compare the clients themselves; Gauntlet's warm-up may
# take 60 s there, since a JVM under a quota compiles for tens of seconds.
# Benchmarks, not tests: nothing asserts.
#
# Usage: bench/generator-vs-h2load.sh [ROUNDS]   (default 3; env PORT=18443 (h2c on PORT+1), SECONDS_PER_RUN=5,
#        SECTIONS="h2 h2c https1", H2_CONNECTIONS=4, H2_STREAMS=16,
#        CLIENT_BUDGET=0.5 (0: no budgeted runs; needs root and /sys/fs/cgroup/cpu))
set -euo pipefail

ROUNDS=${1:-3}
PORT=${PORT:-18443}
H2C_PORT=$((PORT + 1))
RUN_S=${SECONDS_PER_RUN:-5}
if ! [[ "$RUN_S" =~ ^[0-9]+$ ]] || [ "$RUN_S" -lt 3 ]; then
  echo "SECONDS_PER_RUN must be a whole number of seconds, 3 or more (the CPU is sampled in all but the first and last), got $RUN_S" >&2
  exit 2
fi
SECTIONS=${SECTIONS:-h2 h2c https1}
H2_CONNECTIONS=${H2_CONNECTIONS:-4}
H2_STREAMS=${H2_STREAMS:-16}
if ! [[ "$H2_CONNECTIONS$H2_STREAMS" =~ ^[0-9]+$ ]] || [ "$H2_CONNECTIONS" -lt 1 ] || [ "$H2_STREAMS" -lt 1 ]; then
  echo "H2_CONNECTIONS and H2_STREAMS must be whole numbers, 1 or more, got $H2_CONNECTIONS and $H2_STREAMS" >&2
  exit 2
fi
BUDGET=${CLIENT_BUDGET:-0.5}
if ! python3 -c "import sys; b = float(sys.argv[1]); sys.exit(0 if 0 <= b <= 1 else 1)" "$BUDGET" 2>/dev/null; then
  echo "CLIENT_BUDGET must be a share of one CPU from 0 (no budgeted runs) to 1, got $BUDGET" >&2
  exit 2
fi
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

# Gauntlet's run of the closed loop against URL (bench/lib.sh's gauntlet_window, against nginx's worker): sets G_CPU_US,
# its CPU time per request in microseconds, as h2load_run's, and G_NGINX_US, nginx's; the summary is $WORK/gauntlet.json.
gauntlet_run() {
  gauntlet_window "$NGINX_WORKER" "$@"
  G_CPU_US=$CLIENT_US
  G_NGINX_US=$SERVER_US
}
# h2load for RUN_S seconds after a 2 s warm-up (as Gauntlet's). Sets H_RATE, its requests/s (its last lines on stderr
# and 0 when it failed), and H_CPU_US, its CPU time per request in microseconds over its measured seconds but the first
# and the last, and H_NGINX_US, nginx's. Called in the script's shell, not in $(...), to set them.
h2load_run() {
  "${IN_BUDGET[@]}" taskset -c "$CLIENT_CPU" h2load --warm-up-time=2 -D "$RUN_S" "$@" > "$WORK/h2load.out" 2>&1 &
  local pid=$!
  sleep 3
  cpu_window "$pid" "$NGINX_WORKER"
  wait "$pid" || true
  H_RATE=$(sed -n 's/^finished in [^,]*, \([0-9.]*\) req\/s.*/\1/p' "$WORK/h2load.out")
  if [ -z "$H_RATE" ] || ! grep -q " 0 failed, 0 errored" "$WORK/h2load.out"; then
    echo "h2load: $(tail -3 "$WORK/h2load.out" | tr '\n' ' ')" >&2
  fi
  H_RATE=${H_RATE:-0}
  H_CPU_US=$(per_request "$H_RATE")
  H_NGINX_US=$(per_request "$H_RATE" "$SERVER_TICKS")
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
CGROUP=/sys/fs/cgroup/cpu/gauntlet-bench-$$
trap 'kill "$NGINX_PID" 2>/dev/null; wait "$NGINX_PID" 2>/dev/null; rmdir "$CGROUP" 2>/dev/null; rm -rf "$WORK"' EXIT
# The clients' CPU budget: a CPU quota of BUDGET of each 10 ms, a process put in it by IN_BUDGET (it execs the rest, so
# the job's pid stays the client's). Empty while the runs are not budgeted.
IN_BUDGET=()
if [ "$BUDGET" != 0 ] && ! { mkdir -p "$CGROUP" 2>/dev/null && echo 10000 > "$CGROUP/cpu.cfs_period_us" \
    && echo "$(python3 -c "print(int($BUDGET * 10000))")" > "$CGROUP/cpu.cfs_quota_us"; } 2>/dev/null; then
  echo "# no cgroup v1 CPU quota here ($CGROUP): the budgeted runs are left out" >&2
  BUDGET=0
fi
HTTPS="https://127.0.0.1:$PORT/hello"
H2C="http://127.0.0.1:$H2C_PORT/hello"
for _ in $(seq 50); do
  curl -sf --cacert "$WORK/cert.pem" "$HTTPS" >/dev/null 2>&1 && break
  sleep 0.1
done
curl -sf --cacert "$WORK/cert.pem" "$HTTPS" >/dev/null || { echo "nginx did not come up on $HTTPS" >&2; exit 1; }
NGINX_WORKER=$(pgrep -P "$NGINX_PID" | head -1)

echo "# $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# nginx on CPU $SERVER_CPU, clients on CPU $CLIENT_CPU; $("$JAVA" -version 2>&1 | head -1); $(h2load --version | head -1); $(nginx -v 2>&1); $(openssl version)"

# One comparison: NAME, Gauntlet's flags, h2load's flags and URL; ROUNDS alternations, medians and the ratio. Then, with
# a budget, the same within it.
compare() {
  IN_BUDGET=()
  alternate "$1" "$2 --warmup 2s --warmup-max 30s" "$3" "$4"
  if [ "$BUDGET" != 0 ]; then
    IN_BUDGET=(sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$CGROUP")
    alternate "$1, both clients within $BUDGET of a CPU" "$2 --warmup 2s --warmup-max 60s" "$3" "$4"
  fi
}

alternate() {
  local name=$1 gflags=$2 hflags=$3 url=$4
  echo "## $name, ${RUN_S}s each after the warm-up, $ROUNDS alternations"
  local G=() H=() GF=() HF=() GC=() HC=() GN=() HN=()
  for r in $(seq "$ROUNDS"); do
    # shellcheck disable=SC2086
    gauntlet_run "$url" $gflags --duration "${RUN_S}s"
    out=$(cat "$WORK/gauntlet.json")
    g=$(echo "$out" | json 'd["achievedRatePerSec"]')
    gerr=$(echo "$out" | json 'sum(d["errors"].values())')
    gf=$(echo "$out" | json 'd["generatorHiccups"]["p99Ms"]')
    gc=$G_CPU_US
    gn=$G_NGINX_US
    meter_start $((RUN_S + 3))
    # shellcheck disable=SC2086
    h2load_run $hflags "$url"
    meter_wait
    echo "  round $r: gauntlet $g/s ($gerr errors; $gc us CPU/request, nginx $gn; hiccup p99 $gf ms)   h2load $H_RATE/s ($H_CPU_US us CPU/request, nginx $H_NGINX_US; hiccup p99 $METER_P99 ms)"
    G+=("$g"); H+=("$H_RATE"); GF+=("$gf"); HF+=("$METER_P99"); GC+=("$gc"); HC+=("$H_CPU_US"); GN+=("$gn"); HN+=("$H_NGINX_US")
  done
  local gm hm gcm hcm gnm hnm pairs=()
  gm=$(median "${G[@]}"); hm=$(median "${H[@]}"); gcm=$(median "${GC[@]}"); hcm=$(median "${HC[@]}")
  gnm=$(median "${GN[@]}"); hnm=$(median "${HN[@]}")
  for i in "${!G[@]}"; do pairs+=("$(ratio "${G[$i]}" "${H[$i]}")"); done
  echo "  median: gauntlet $gm/s, h2load $hm/s; ratio gauntlet/h2load $(ratio "$gm" "$hm") (each round's: ${pairs[*]}; their median $(median "${pairs[@]}")); CPU per request $gcm / $hcm us, ratio $(ratio "$gcm" "$hcm"); nginx's CPU per request $gnm / $hnm us, ratio $(ratio "$gnm" "$hnm"); hiccup p99 medians $(median "${GF[@]}") / $(median "${HF[@]}") ms"
}

# An if, not "on X && compare": a section left out as the last line would end the script with a failure.
if on h2; then
  compare "h2 over TLS, $H2_CONNECTIONS connections x $H2_STREAMS streams" \
    "--http2 --connections $H2_CONNECTIONS --streams $H2_STREAMS --insecure" "-c $H2_CONNECTIONS -m $H2_STREAMS" "$HTTPS"
fi
if on h2c; then
  compare "h2c (prior knowledge), $H2_CONNECTIONS connections x $H2_STREAMS streams" \
    "--http2 --connections $H2_CONNECTIONS --streams $H2_STREAMS" "-c $H2_CONNECTIONS -m $H2_STREAMS" "$H2C"
fi
if on https1; then
  compare "HTTPS/1.1, 50 connections" "--connections 50 --insecure" "--h1 -c 50 -m 1" "$HTTPS"
fi
