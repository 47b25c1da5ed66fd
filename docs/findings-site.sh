#!/usr/bin/env bash
# The site of the results docs/findings.md quotes: its front page answers each study first, with intervals over forks,
# and every target and client has its page. The results stay outside git (about 370 MB): on the project's machine they
# are kept in /work/results44; to share them, archive the six directories below (tar -C RESULTS_ROOT -czf
# findings-495acdb.tar.gz server-20261206-162059 ...) and unpack them anywhere, then point this script there.
#
# Usage: docs/findings-site.sh [RESULTS_ROOT] [OUT]    (defaults: /work/results44, /tmp/gauntlet-findings-site)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RESULTS=${1:-/work/results44}
OUT=${2:-/tmp/gauntlet-findings-site}
# What findings.md quotes, at commit 495acdb: the server suite with G1 and with its parallel-gc profile, throughput,
# latency-diff, sweep and client.
DIRS=(server-20261206-162059 server-20261206-202536 throughput-20261206-171359 latency-diff-20261206-180954
  sweep-20261206-190845 client-20261206-195009)
args=()
for dir in "${DIRS[@]}"; do
  [[ -d "$RESULTS/$dir" ]] || { echo "findings-site: no $RESULTS/$dir; give the directory the findings' results were unpacked to" >&2; exit 2; }
  args+=("$RESULTS/$dir")
done
"$ROOT/gauntlet" site "${args[@]}" --out "$OUT"
