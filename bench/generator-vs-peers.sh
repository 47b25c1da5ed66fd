#!/usr/bin/env bash
# Gauntlet's load generator against its peers, on this machine, against nginx on 127.0.0.1,
# nginx pinned to the first CPU and every client to the last (taskset):
#   1. closed loop, 50 connections: Gauntlet vs wrk, alternately, requests/s;
#   2. one keep-alive connection: Gauntlet vs ab -k -c1, wall time per request;
#   3. open loop at 10k, 25k and 50k requests/s: Gauntlet (adaptive connections, and a fixed pool
#      of 100) vs bombardier's rate-limited fixed pool of 100, response p99 and connections;
#   4. CPU per request: the engine thread's, open loop at 1,000 and 10,000/s against the closed loop;
#   5. CPU per request of the whole client process, open loop at 10,000 and 50,000/s over 100 connections:
#      Gauntlet at each wake granularity of GRANULARITIES (default "auto 0 1ms": the default, a wake
#      per intended start, wrk2's millisecond) against wrk2 (built from its public source with make),
#      with both response p99s;
#   6. 19,000 connections held: Gauntlet's peak heap (with -Xmx512m).
# Beside every round, the platform's hiccup p99 on the client CPU during it (Gauntlet's own meter,
# or a meter JVM beside the peer): the noise floor the round ran on.
# Prints medians of the alternations and the ratios. Benchmarks, not tests: nothing asserts.
#
# Usage: bench/generator-vs-peers.sh [ROUNDS]   (default 3; env PORT=18080, SECONDS_PER_RUN=5,
#        WRK2_SRC=a wrk2 checkout when github.com cannot be reached,
#        SECTIONS="closed one open engine process held" to run some of them, e.g. SECTIONS=process,
#        GRANULARITIES="auto 0 1ms" for section 5)
set -euo pipefail

ROUNDS=${1:-3}
PORT=${PORT:-18080}
RUN_S=${SECONDS_PER_RUN:-5}
SECTIONS=${SECTIONS:-closed one open engine process held}
on() { [[ " $SECTIONS " == *" $1 "* ]]; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/gauntlet-bench.XXXXXX)
URL="http://127.0.0.1:$PORT/hello"
SERVER_CPU=0
CLIENT_CPU=$(( $(nproc) - 1 ))

# shellcheck source=lib.sh
source "$ROOT/bench/lib.sh"
need wrk wrk
need ab apache2-utils
need nginx nginx
need go golang-go
BOMBARDIER=${BOMBARDIER:-/tmp/gauntlet-bench-tools/bombardier}
if [ ! -x "$BOMBARDIER" ]; then
  echo "installing bombardier 1.2.6 from the Go module proxy" >&2
  mkdir -p "$(dirname "$BOMBARDIER")/mod"
  (cd "$(dirname "$BOMBARDIER")/mod" && { [ -f go.mod ] || go mod init bench-tools >/dev/null 2>&1; } \
    && go get github.com/codesenberg/bombardier@v1.2.6 >/dev/null 2>&1 \
    && go build -o "$BOMBARDIER" github.com/codesenberg/bombardier) >&2
fi

if on process; then build_wrk2; fi

CLOSED_RATIO=-; ONE_RATIO=-; OPEN_RATIOS=(-); CPU_RATIOS=(-)
gauntlet() {
  client "$JAVA" -Xmx512m -cp "$CP" dev.gauntlet.loadgen.LoadCommand "$URL" --json "$@" 2>>"$WORK/gauntlet.log"
}

start_nginx

echo "# $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# nginx on CPU $SERVER_CPU, clients on CPU $CLIENT_CPU; $("$JAVA" -version 2>&1 | head -1); $(wrk --version 2>&1 | head -1 | cut -d' ' -f1-2); $(ab -V | head -1); $(nginx -v 2>&1); bombardier 1.2.6"

# ROUNDS alternations of Gauntlet (run with the arguments after the fourth, its summary's FIGURE read) and a peer (the
# function PEER, which prints its own figure), each beside the hiccup meter, printed round by round in UNIT; sets GM and
# PM, Gauntlet's and the peer's medians. Called in the script's shell, as meter_wait must be.
alternate() {
  local figure=$1 unit=$2 peer_name=$3 peer=$4 r out g p
  shift 4
  local gs=() ps=()
  for r in $(seq "$ROUNDS"); do
    out=$(gauntlet "$@")
    g=$(echo "$out" | json "$figure")
    meter_start "$RUN_S"
    p=$("$peer")
    meter_wait
    echo "round $r: gauntlet $g $unit (hiccup p99 $(echo "$out" | json 'd["generatorHiccups"]["p99Ms"]') ms)," \
         "$peer_name $p $unit (hiccup p99 $METER_P99 ms)"
    gs+=("$g"); ps+=("$p")
  done
  GM=$(median "${gs[@]}"); PM=$(median "${ps[@]}")
}
wrk_rate() { client wrk -t1 -c50 -d"${RUN_S}s" "$URL" | awk '/Requests\/sec/ {print $2}'; }
ab_ms() { client ab -k -c1 -t "$RUN_S" -n 10000000 "$URL" 2>/dev/null | awk '/Time per request:.*\(mean\)$/ {print $4}'; }

if on closed; then
  echo "## closed loop, 50 connections, ${RUN_S}s each, $ROUNDS alternations (wrk -t1: its best here)"
  alternate 'd["achievedRatePerSec"]' req/s wrk wrk_rate --connections 50 --warmup 2s --duration "${RUN_S}s"
  CLOSED_RATIO=$(ratio "$GM" "$PM")
  echo "median: gauntlet $GM req/s, wrk $PM req/s, ratio gauntlet/wrk = $CLOSED_RATIO (target >= 1.0)"

fi
if on one; then
  echo "## one keep-alive connection, $ROUNDS alternations (wall time per request, as ab counts it)"
  alternate '1000 / d["achievedRatePerSec"]' ms ab ab_ms --connections 1 --warmup 2s --duration "${RUN_S}s"
  ONE_RATIO=$(ratio "$GM" "$PM")
  echo "median: gauntlet $GM ms, ab -k -c1 $PM ms, ratio gauntlet/ab = $ONE_RATIO (target <= 1.0)"

fi
if on open; then
  echo "## open loop, exponential, ${RUN_S}s after a 2s warm-up: response p99 against bombardier's fixed pool of 100"
  OPEN_RATIOS=()
  for rate in 10000 25000 50000; do
    for r in $(seq "$ROUNDS"); do
      adaptive=$(gauntlet --rate "$rate" --warmup 2s --duration "${RUN_S}s")
      pool=$(gauntlet --rate "$rate" --connections 100 --warmup 2s --duration "${RUN_S}s")
      meter_start "$RUN_S"
      b=$(client "$BOMBARDIER" -c 100 -r "$rate" -d "${RUN_S}s" -l -p r -o json "$URL" 2>/dev/null)
      bp99=$(echo "$b" | json 'd["result"]["latency"]["percentiles"]["99"] / 1000')
      ap99=$(echo "$adaptive" | json 'd["responseTime"]["p99Ms"]')
      meter_wait
      echo "$rate/s round $r: gauntlet adaptive p99 $ap99 ms, $(echo "$adaptive" | json 'd["connectionsOpened"]') connections," \
           "$(echo "$adaptive" | json 'round(d["achievedRatePerSec"])')/s, verdict $(echo "$adaptive" | json 'd["verdict"]')," \
           "hiccup p99 $(echo "$adaptive" | json 'd["generatorHiccups"]["p99Ms"]') ms;" \
           "gauntlet pool of 100 p99 $(echo "$pool" | json 'd["responseTime"]["p99Ms"]') ms;" \
           "bombardier p99 $bp99 ms at $(echo "$b" | json 'round(d["result"]["rps"]["mean"])')/s (hiccup p99 $METER_P99 ms)"
      OPEN_RATIOS+=("$rate:$(ratio "$ap99" "$bp99")")
    done
  done
  echo "gauntlet adaptive p99 / bombardier p99 by rate and round: ${OPEN_RATIOS[*]} (target <= 1.5)"

fi
if on engine; then
  echo "## engine CPU per request over the measured phase: open loop at 1,000 and 10,000/s against the closed loop flat out"
  cpu_us() { json 'round(d["generatorCost"]["engineCpuPercent"] / 100 * d["measuredSec"] * 1e6 / d["sent"], 1)'; }
  CLOSED_US=$(gauntlet --connections 50 --warmup 2s --duration "${RUN_S}s" | cpu_us)
  for rate in 1000 10000; do
    OPEN_US=$(gauntlet --rate "$rate" --warmup 2s --duration "${RUN_S}s" | cpu_us)
    echo "open loop $rate/s: $OPEN_US µs of engine-thread CPU per request; closed loop 50c: $CLOSED_US µs; ratio $(ratio "$OPEN_US" "$CLOSED_US") (target: within 2x)"
  done

fi
if on process; then
  echo "## client process CPU per request, open loop over 100 connections, ${RUN_S}s: Gauntlet (fixed pool of 100) against wrk2 -c100"
  # Gauntlet's figure is its process CPU over the measured phase (after its JIT and load warm-ups); wrk2's is read
  # from /proc over the same length of its run, from 2 s in, past its connects and its first timers.
  TICKS=$(getconf CLK_TCK)
  proc_cpu_s() { awk -v t="$TICKS" '{print ($14 + $15) / t}' "/proc/$1/stat"; }
  wrk2_p99_ms() {
    python3 -c "import re,sys; m=[re.match(r'\s*99\.000%\s+([0-9.]+)(us|ms|s)\s*$', l) for l in sys.stdin]; m=[x for x in m if x]; \
print(round(float(m[0].group(1)) * {'us': 0.001, 'ms': 1, 's': 1000}[m[0].group(2)], 3) if m else 'n/a')"
  }
  # Gauntlet at each wake granularity asked (the first one's ratio is the headline); wrk2 once a round.
  read -r -a GRANS <<< "${GRANULARITIES:-auto 0 1ms}"
  CPU_RATIOS=()
  for rate in 10000 50000; do
    declare -A GU=(); WU=()
    for r in $(seq "$ROUNDS"); do
      for g in "${GRANS[@]}"; do
        out=$(gauntlet --rate "$rate" --connections 100 --warmup 2s --duration "${RUN_S}s" --wake-granularity "$g")
        gu=$(echo "$out" | json 'round(d["generatorCost"]["processCpuPercent"] / 100 * d["measuredSec"] * 1e6 / d["sent"], 2)')
        echo "$rate/s round $r: gauntlet --wake-granularity $g (woke by $(echo "$out" | json 'd["wakeGranularityMs"]') ms):" \
             "$gu µs of process CPU per request, p99 $(echo "$out" | json 'd["responseTime"]["p99Ms"]') ms," \
             "loop lateness p99 $(echo "$out" | json 'd["loopLateness"]["p99Ms"]') ms, $(echo "$out" | json 'round(d["achievedRatePerSec"])')/s," \
             "hiccup p99 $(echo "$out" | json 'd["generatorHiccups"]["p99Ms"]') ms, $(echo "$out" | json 'd["verdict"]')"
        GU[$g]="${GU[$g]:-} $gu"
      done
      # taskset execs wrk2, so $! is wrk2's own pid (a shell function in the background would be a subshell's).
      meter_start "$((RUN_S + 3))"
      taskset -c "$CLIENT_CPU" "$WRK2" -t1 -c100 -d"$((RUN_S + 3))s" -R "$rate" --latency "$URL" > "$WORK/wrk2.out" 2>&1 &
      WRK2_PID=$!
      sleep 2
      c0=$(proc_cpu_s "$WRK2_PID"); t0=$(date +%s.%N)
      sleep "$RUN_S"
      c1=$(proc_cpu_s "$WRK2_PID"); t1=$(date +%s.%N)
      wait "$WRK2_PID"
      # Per request wrk2 completed (it runs a few per cent under the rate asked), as Gauntlet's is per request sent.
      wrate=$(awk '/Requests\/sec/ {print $2}' "$WORK/wrk2.out")
      wu=$(python3 -c "import sys; c0,c1,t0,t1,rate=map(float,sys.argv[1:]); print(round((c1-c0) * 1e6 / ((t1-t0) * rate), 2))" \
           "$c0" "$c1" "$t0" "$t1" "$wrate")
      meter_wait
      echo "$rate/s round $r: wrk2 $wu µs, p99 $(wrk2_p99_ms < "$WORK/wrk2.out") ms at $wrate/s (hiccup p99 $METER_P99 ms)"
      WU+=("$wu")
    done
    WM=$(median "${WU[@]}")
    for g in "${GRANS[@]}"; do
      # shellcheck disable=SC2086 # the rounds' figures, split on purpose
      GM=$(median ${GU[$g]})
      echo "median at $rate/s: gauntlet --wake-granularity $g $GM µs, wrk2 $WM µs per request, ratio gauntlet/wrk2 = $(ratio "$GM" "$WM") (target <= 1.0)"
      [ "$g" = "${GRANS[0]}" ] && CPU_RATIOS+=("$rate:$(ratio "$GM" "$WM")")
    done
    unset GU
  done

fi
if on held; then
  echo "## 19,000 connections, closed loop, -Xmx512m (a 15s warm-up lets nginx accept them all)"
  out=$(gauntlet --connections 19000 --warmup 15s --duration "${RUN_S}s" --connect-timeout 10s)
  echo "connections peak $(echo "$out" | json 'd["connectionsPeak"]'), achieved $(echo "$out" | json 'd["achievedRatePerSec"]') req/s," \
       "errors $(echo "$out" | json 'sum(d["errors"].values())'), heap peak $(echo "$out" | json 'd["generatorCost"]["heapUsedMaxBytes"] >> 20') MB (target <= 512 MB)"

fi
echo "## ratios: closed loop gauntlet/wrk $CLOSED_RATIO, one connection gauntlet/ab $ONE_RATIO, open loop p99 gauntlet/bombardier ${OPEN_RATIOS[*]}, process CPU per request gauntlet/wrk2 ${CPU_RATIOS[*]}"
