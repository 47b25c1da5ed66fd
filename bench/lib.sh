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

json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
median() { python3 -c "import statistics,sys; print(round(statistics.median(float(x) for x in sys.argv[1:]), 3))" "$@"; }
ratio() { python3 -c "import sys; print(round(float(sys.argv[1]) / float(sys.argv[2]), 3) if float(sys.argv[2]) else '-')" "$1" "$2"; }
