#!/usr/bin/env bash
# What HTTP/3 costs the generator and the server per request, against HTTP/2 over TLS and HTTPS/1.1, on this machine:
# one netty-event-loop target (Netty 4.2: TLS on BoringSSL, HTTP/3 on its QUIC codec, quiche) serving all three on one
# port number (TCP: HTTPS/1.1 and h2 by ALPN; UDP: h3), pinned to the first CPU, and every client pinned to the last
# (taskset), closed loop, 64 requests in flight (h2 and h3: 4 connections x 16 streams; HTTPS/1.1: 64 connections),
# alternately:
#   1. Gauntlet over HTTPS/1.1 (the lean engine, the JDK's SSLEngine);
#   2. Gauntlet over h2 (the lean engine);
#   3. Gauntlet over h3 (Netty's QUIC codec, quiche);
#   4. oha over h3 (Rust: quinn and h3; `cargo install oha --features http3`, built once into OHA_ROOT), when it builds
#      here: an independent HTTP/3 load tool (h2load from Debian's nghttp2 has no QUIC).
# Beside every round, each client's CPU time per request over its measured seconds but the first and the last (from
# /proc), and the target JVM's over the same seconds. The rates are the target's (one CPU, QUIC's cost on it); the CPU
# per request says what each protocol costs each side. Gauntlet warms up until steady (--warmup-max) before it
# measures; oha is given a 2 s warm-up (its first seconds are not in its CPU window). Prints each round, the medians of
# the alternations, and the ratios h3 / h2 and h3 / HTTPS/1.1 of each side's CPU per request, and Gauntlet / oha over h3.
# Benchmarks, not tests: nothing asserts.
#
# Usage: bench/generator-h3.sh [ROUNDS]   (default 3; env PORT=18643, SECONDS_PER_RUN=8, OHA_ROOT=/tmp/gauntlet-bench-tools/oha)
set -euo pipefail

ROUNDS=${1:-3}
PORT=${PORT:-18643}
RUN_S=${SECONDS_PER_RUN:-8}
if ! [[ "$ROUNDS" =~ ^[0-9]+$ ]] || [ "$ROUNDS" -lt 1 ]; then
  echo "ROUNDS must be a whole number, 1 or more, got $ROUNDS" >&2
  exit 2
fi
if ! [[ "$RUN_S" =~ ^[0-9]+$ ]] || [ "$RUN_S" -lt 4 ]; then
  echo "SECONDS_PER_RUN must be a whole number of seconds, 4 or more (the CPU is sampled in all but the first and last), got $RUN_S" >&2
  exit 2
fi
OHA_ROOT=${OHA_ROOT:-/tmp/gauntlet-bench-tools/oha}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/gauntlet-bench.XXXXXX)
SERVER_CPU=0
CLIENT_CPU=$(( $(nproc) - 1 ))

# shellcheck source=lib.sh
source "$ROOT/bench/lib.sh"
need curl curl
if curl -sk -o /dev/null "https://127.0.0.1:$PORT/" 2>/dev/null; then
  echo "something already listens on 127.0.0.1:$PORT; choose another port with PORT=..." >&2
  exit 2
fi

# oha with HTTP/3, built from crates.io once (several minutes on two CPUs); left out when cargo cannot build it.
OHA="$OHA_ROOT/bin/oha"
if [ ! -x "$OHA" ] && command -v cargo >/dev/null 2>&1; then
  echo "building oha with HTTP/3 into $OHA_ROOT (cargo install oha --features http3; once)" >&2
  cargo install -q oha --features http3 --locked --root "$OHA_ROOT" >/dev/null 2>&1 || true
fi
[ -x "$OHA" ] || echo "# oha with HTTP/3 could not be built here (cargo install oha --features http3): its rounds are left out" >&2

# The target: netty-event-loop with TLS (self-signed), h2 and h3 on PORT, its JVM pinned to the server CPU.
TARGET_CP="$ROOT/targets/netty/target/gauntlet-target-netty.jar:$ROOT/targets/netty/target/lib/*"
if [ ! -f "$ROOT/targets/netty/target/gauntlet-target-netty.jar" ]; then
  echo "building the netty target" >&2
  (cd "$ROOT" && JAVA_HOME="$JAVA_HOME" ./mvnw -B -ntp -q -pl targets/netty -am package -DskipTests) >&2
fi
taskset -c "$SERVER_CPU" "$JAVA" --enable-native-access=ALL-UNNAMED -Xms512m -Xmx512m -cp "$TARGET_CP" \
  dev.gauntlet.targets.TargetMain --server dev.gauntlet.targets.netty.NettyTargets#eventLoop --port "$PORT" \
  --tls self-signed --http2 true --http3 true > "$WORK/target.log" 2>&1 &
TARGET_PID=$!
trap 'kill "$TARGET_PID" 2>/dev/null; wait "$TARGET_PID" 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do grep -q '^READY' "$WORK/target.log" && break; sleep 0.1; done
grep -q '^READY' "$WORK/target.log" || { echo "the target did not start: $(tail -2 "$WORK/target.log")" >&2; exit 1; }
PEM=$(sed -n 's/^TLS certificate=//p' "$WORK/target.log")
URL="https://127.0.0.1:$PORT/hello"

echo "# $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# netty-event-loop on CPU $SERVER_CPU, clients on CPU $CLIENT_CPU; $("$JAVA" -version 2>&1 | head -1); $([ -x "$OHA" ] && "$OHA" --version)"

# Gauntlet's closed loop with FLAGS (bench/lib.sh's gauntlet_window, against the target JVM): sets RATE, ERRORS,
# CLIENT_US and TARGET_US. Called in the script's shell, not in $(...), to set them.
gauntlet_run() {
  # shellcheck disable=SC2086
  gauntlet_window "$TARGET_PID" "$URL" --cacert "$PEM" --warmup 2s --warmup-max 30s --duration "${RUN_S}s" $1
  ERRORS=$(json 'sum(d["errors"].values())' < "$WORK/gauntlet.json")
  TARGET_US=$SERVER_US
}
# oha over h3 for 2 + RUN_S seconds, 4 connections x 16 streams: the same figures, from its JSON.
oha_run() {
  taskset -c "$CLIENT_CPU" "$OHA" --no-tui --output-format json --http-version 3 --insecure -c 4 -p 16 -z "$((RUN_S + 2))s" "$URL" \
    > "$WORK/oha.json" 2> "$WORK/oha.log" &
  local pid=$!
  sleep 3
  cpu_window "$pid" "$TARGET_PID"
  wait "$pid" || true
  # Its answers over its whole run (its requestsPerSec counts the wait for the requests the deadline cut off); those
  # cut off (64, one a stream) are not errors.
  RATE=$(json "round(d['statusCodeDistribution'].get('200', 0) / $((RUN_S + 2)), 1)" < "$WORK/oha.json" 2>/dev/null || echo 0)
  ERRORS=$(json 'sum(n for e, n in d.get("errorDistribution", {}).items() if "deadline" not in e)' < "$WORK/oha.json" 2>/dev/null || echo "?")
  CLIENT_US=$(per_request "$RATE")
  TARGET_US=$(per_request "$RATE" "$SERVER_TICKS")
}

CASES=("https1:--connections 64" "h2:--http2 --connections 4 --streams 16" "h3:--http3 --connections 4 --streams 16")
[ -x "$OHA" ] && CASES+=("oha-h3:")
declare -A CLIENT_FIGS TARGET_FIGS RATE_FIGS
echo "## closed loop, 64 requests in flight, ${RUN_S}s measured each, $ROUNDS alternations: rate/s, CPU µs per request client / target"
for r in $(seq "$ROUNDS"); do
  line="  round $r:"
  for c in "${CASES[@]}"; do
    name=${c%%:*}
    if [ "$name" = oha-h3 ]; then oha_run; else gauntlet_run "${c#*:}"; fi
    line+="  $name $RATE/s ($ERRORS errors) $CLIENT_US / $TARGET_US"
    RATE_FIGS[$name]+=" $RATE"; CLIENT_FIGS[$name]+=" $CLIENT_US"; TARGET_FIGS[$name]+=" $TARGET_US"
  done
  echo "$line"
done
for c in "${CASES[@]}"; do
  name=${c%%:*}
  # shellcheck disable=SC2086
  echo "  median $name: $(median ${RATE_FIGS[$name]})/s, client $(median ${CLIENT_FIGS[$name]}) µs, target $(median ${TARGET_FIGS[$name]}) µs per request"
done
m() { median ${1}; }
# shellcheck disable=SC2086
echo "  ratios of the medians: client h3/h2 $(ratio "$(m "${CLIENT_FIGS[h3]}")" "$(m "${CLIENT_FIGS[h2]}")"), h3/https1 $(ratio "$(m "${CLIENT_FIGS[h3]}")" "$(m "${CLIENT_FIGS[https1]}")"); target h3/h2 $(ratio "$(m "${TARGET_FIGS[h3]}")" "$(m "${TARGET_FIGS[h2]}")"), h3/https1 $(ratio "$(m "${TARGET_FIGS[h3]}")" "$(m "${TARGET_FIGS[https1]}")")"
if [ -x "$OHA" ]; then
  # shellcheck disable=SC2086
  echo "  over h3, Gauntlet / oha: rate $(ratio "$(m "${RATE_FIGS[h3]}")" "$(m "${RATE_FIGS[oha-h3]}")"), client CPU per request $(ratio "$(m "${CLIENT_FIGS[h3]}")" "$(m "${CLIENT_FIGS[oha-h3]}")"), target CPU per request $(ratio "$(m "${TARGET_FIGS[h3]}")" "$(m "${TARGET_FIGS[oha-h3]}")")"
fi
