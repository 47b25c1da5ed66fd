#!/usr/bin/env bash
# The first screens in docs/img: the quick, server and latency-diff suites' reports as a reader first sees them, in
# headless Chromium at 1280 × 1000. The server and latency-diff suites run on a few of their targets and forks, to
# stay within about 20 minutes on 2 CPUs; each page names what it ran. Run it from a fresh clone with nothing else
# running (the figures are measured here), after ./gauntlet's first build.
#
# Usage: docs/img/first-screens.sh [RESULTS_DIR]     (default: a new directory under /tmp, kept for a look)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT="$ROOT/docs/img"
RESULTS=${1:-$(mktemp -d /tmp/gauntlet-first-screens.XXXXXX)}
BROWSER=$(command -v chromium-headless-shell || command -v chromium) \
  || { echo "first-screens: no headless Chromium (apt-get install -y chromium-headless-shell)" >&2; exit 2; }

# shoot SUITE PNG [RUN OPTIONS...]: runs the suite into RESULTS/SUITE and screenshots its report's first screen.
shoot() {
  local suite=$1 png=$2
  shift 2
  echo "first-screens: $suite ..." >&2
  # A run that failed (a target that died) is part of the answer: the report shows it, so the screen is taken anyway.
  "$ROOT/gauntlet" run --suite "$suite" --results "$RESULTS/$suite" "$@" \
    || echo "first-screens: $suite ended with exit code $?; its report shows what ran" >&2
  local dir
  dir=$(find "$RESULTS/$suite" -mindepth 1 -maxdepth 1 -type d | sort | tail -n 1)
  # The page draws from its inlined data within a second; the budget lets its scripts finish before the capture.
  "$BROWSER" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1000 \
    --virtual-time-budget=10000 --screenshot="$OUT/$png" "file://$dir/report.html" 2>/dev/null
  echo "first-screens: $OUT/$png from $dir" >&2
}

shoot quick quick-first-screen.png
shoot server server-first-screen.png --targets jetty-servlet-virtual,tomcat-servlet-sync,netty-event-loop --forks 2
shoot latency-diff latency-diff-first-screen.png \
  --targets dummy,undertow-handler-event-loop,jetty-handler-sync,netty-event-loop --forks 3 --max-forks 3 --max-minutes 10
