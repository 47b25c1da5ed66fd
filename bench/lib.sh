# Shared by the bench scripts (sourced, after ROOT, WORK and CLIENT_CPU are set): installing a peer, the generator's
# classpath (built when its sources are newer), a client pinned to the client CPU, the hiccup meter beside a peer, and
# the arithmetic of the summaries.

need() {
  if ! command -v "$1" >/dev/null 2>&1; then
    echo "installing $2 (for $1)" >&2
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
  fi
}

JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JAVA="$JAVA_HOME/bin/java"
JAR="$ROOT/loadgen/target/gauntlet-loadgen.jar"
CP="$JAR:$ROOT/loadgen/target/lib/*"
if [ ! -f "$JAR" ] || [ -n "$(find "$ROOT/loadgen/src/main" "$ROOT/api/src/main" "$ROOT/hiccup/src/main" -newer "$JAR" -print -quit)" ]; then
  echo "building the generator" >&2
  (cd "$ROOT" && JAVA_HOME="$JAVA_HOME" ./mvnw -B -ntp -q -pl loadgen -am package -DskipTests) >&2
fi

client() { taskset -c "$CLIENT_CPU" "$@"; }

# A hiccup meter on the client CPU for S seconds, beside a peer.
meter_start() {
  client "$JAVA" -Xmx64m -XX:+UseSerialGC -cp "$CP" dev.gauntlet.hiccup.CalibrationMain meter --seconds "$1" \
    > "$WORK/meter.out" 2>/dev/null &
  METER_PID=$!
}
# Waits for the meter and sets METER_P99 (ms). Called in the script's shell, not in $(...): a subshell cannot wait for
# the meter, and would read its file before it is written.
meter_wait() {
  wait "$METER_PID" || true
  METER_P99=$(sed -n 's/^RESULT //p' "$WORK/meter.out" | json 'd["hiccups"]["p99Ms"]')
}

# The CPU ticks process CLIENT_PID and SERVER_PID take in the RUN_S - 2 seconds from now: WINDOW_TICKS, SERVER_TICKS
# (a run's seconds but its first and its last).
cpu_window() {
  local t0 n0
  t0=$(cpu_ticks "$1")
  n0=$(cpu_ticks "$2")
  sleep $((RUN_S - 2))
  WINDOW_TICKS=$(($(cpu_ticks "$1") - t0))
  SERVER_TICKS=$(($(cpu_ticks "$2") - n0))
}
# Microseconds of CPU per request of TICKS (default WINDOW_TICKS) over cpu_window's seconds at RATE requests/s.
per_request() {
  python3 -c "import sys; r = float(sys.argv[1]); print(round(${2:-$WINDOW_TICKS} / $(getconf CLK_TCK) * 1e6 / (r * ($RUN_S - 2)), 2) if r else '-')" "$1"
}
# A process's user and system CPU ticks so far, its threads' included (0 once it ended).
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }

# Gauntlet's load (LoadCommand) pinned to the client CPU, within IN_BUDGET's prefix where a script sets one: URL and its
# flags after SERVER_PID. Its JSON summary goes to $WORK/gauntlet.json, its progress to $WORK/gauntlet.log; sets RATE
# (the achieved requests/s), CLIENT_US and SERVER_US (CPU µs per request over its measured seconds but the first and the
# last, the first beginning when its progress line says so). Called in the script's shell, not in $(...), to set them.
gauntlet_window() {
  local server=$1 url=$2; shift 2
  ${IN_BUDGET[@]+"${IN_BUDGET[@]}"} taskset -c "$CLIENT_CPU" "$JAVA" -Xmx512m -cp "$CP" dev.gauntlet.loadgen.LoadCommand \
    "$url" --json "$@" > "$WORK/gauntlet.json" 2> "$WORK/gauntlet.log" &
  local pid=$!
  until grep -q '^ *1s  sent' "$WORK/gauntlet.log" || ! kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
  cpu_window "$pid" "$server"
  if ! wait "$pid"; then
    echo "gauntlet load failed: $(tail -2 "$WORK/gauntlet.log")" >&2
    exit 1
  fi
  RATE=$(json 'd["achievedRatePerSec"]' < "$WORK/gauntlet.json")
  CLIENT_US=$(per_request "$RATE")
  SERVER_US=$(per_request "$RATE" "$SERVER_TICKS")
}

json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
# The median of the numbers given; a "-" (a round with no figure: its client failed) is left out, and none at all is "-".
median() { python3 -c "import statistics,sys; xs = [float(x) for x in sys.argv[1:] if x != '-']; print(round(statistics.median(xs), 3) if xs else '-')" "$@"; }
ratio() { python3 -c "import sys; a, b = sys.argv[1:3]; print(round(float(a) / float(b), 3) if '-' not in (a, b) and float(b) else '-')" "$1" "$2"; }

# wrk2 is not packaged: built from its source with make, a checkout in WRK2_SRC or a clone of the public repository,
# into WRK2 (default /tmp/gauntlet-bench-tools/wrk2/wrk) once; later calls find it built.
WRK2=${WRK2:-/tmp/gauntlet-bench-tools/wrk2/wrk}
build_wrk2() {
  [ -x "$WRK2" ] && return 0
  echo "building wrk2 from ${WRK2_SRC:-https://github.com/giltene/wrk2} with make" >&2
  need make make
  need gcc gcc
  dpkg -s libssl-dev zlib1g-dev >/dev/null 2>&1 || need openssl "libssl-dev zlib1g-dev"
  rm -rf "$(dirname "$WRK2")" && mkdir -p "$(dirname "$(dirname "$WRK2")")"
  if [ -n "${WRK2_SRC:-}" ]; then
    cp -r "$WRK2_SRC" "$(dirname "$WRK2")"
  elif ! git clone -q https://github.com/giltene/wrk2 "$(dirname "$WRK2")" 2>/dev/null; then
    echo "cannot clone https://github.com/giltene/wrk2: give a checkout with WRK2_SRC=DIR" >&2
    exit 2
  fi
  (cd "$(dirname "$WRK2")" && make -j1 >/dev/null 2>&1) || { echo "wrk2 did not build; see make in $(dirname "$WRK2")" >&2; exit 2; }
}

# nginx serving hello on 127.0.0.1 at the port given (default $PORT) from bench/nginx.conf, pinned to SERVER_CPU, ended
# (and WORK removed) when the script exits; its stub_status at /nginx_status. Called again for another port, another
# nginx of its own (the perf gate gives each client its own, so each one's requests are counted apart).
NGINX_PIDS=()
start_nginx() {
  local port=${1:-$PORT} dir="$WORK/nginx-${1:-$PORT}"
  if curl -s -o /dev/null "http://127.0.0.1:$port/" 2>/dev/null; then
    echo "something already listens on 127.0.0.1:$port; choose another port with PORT=..." >&2
    exit 2
  fi
  mkdir -p "$dir"
  sed -e "s#@PORT@#$port#; s#@DIR@#$dir#g" "$ROOT/bench/nginx.conf" > "$dir/nginx.conf"
  taskset -c "$SERVER_CPU" nginx -c "$dir/nginx.conf" -e "$dir/error.log" &
  NGINX_PIDS+=($!)
  trap 'kill "${NGINX_PIDS[@]}" 2>/dev/null; wait "${NGINX_PIDS[@]}" 2>/dev/null; rm -rf "$WORK"' EXIT
  for _ in $(seq 50); do
    curl -sf "http://127.0.0.1:$port/hello" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "nginx did not come up on 127.0.0.1:$port (see $dir/error.log)" >&2
  exit 2
}
