#!/usr/bin/env bash
# The site's screens in docs/img: the front page and a target's page of a site ./gauntlet site built, as a reader first
# sees them, in headless Chromium at 1280 × 1000 (the target's page taller, to hold its history chart and table).
#
# Usage: docs/img/site-screens.sh SITE_DIR [TARGET]     (TARGET: the page to show, default dummy)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT="$ROOT/docs/img"
SITE=${1:?"usage: docs/img/site-screens.sh SITE_DIR [TARGET]"}
TARGET=${2:-dummy}
BROWSER=$(command -v chromium-headless-shell || command -v chromium) \
  || { echo "site-screens: no headless Chromium (apt-get install -y chromium-headless-shell)" >&2; exit 2; }
[[ -f "$SITE/index.html" && -f "$SITE/targets/$TARGET.html" ]] \
  || { echo "site-screens: $SITE holds no site with a page of $TARGET (build one with ./gauntlet site)" >&2; exit 2; }

# shoot PAGE PNG HEIGHT: the page's first HEIGHT pixels, once its scripts drew it.
shoot() {
  "$BROWSER" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="1280,$3" \
    --virtual-time-budget=10000 --screenshot="$OUT/$2" "file://$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" 2>/dev/null
  echo "site-screens: $OUT/$2 from $1" >&2
}

shoot "$SITE/index.html" site-front.png 1000
shoot "$SITE/targets/$TARGET.html" site-target.png 1400
