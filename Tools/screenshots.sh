#!/usr/bin/env bash
# Makes the README's pictures from the samples: the replay page of a sample trail and the page of a crash group,
# rendered by headless Chromium into docs/images/. Needs chromium (apt-get install chromium).
#   Tools/screenshots.sh
set -euo pipefail
cd "$(dirname "$0")/.."
browser="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
[ -n "$browser" ] || { echo "error: Chromium is not installed: apt-get install chromium (or set CHROMIUM)" >&2; exit 1; }
swift build --product crashtrail >&2
bin="$(swift build --show-bin-path)/crashtrail"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
manifest="$PWD/Samples/PirateBay/Sources/PirateBay/piratebay.yml"
"$bin" replay Samples/trails-golden/trails/sign-in-interrupted.json --manifest "$manifest" --format html > "$work/replay.html"
(cd "$work" && "$bin" ingest "$OLDPWD/Samples/reports" --trails "$OLDPWD/Samples/trails" --manifest "$manifest" --quiet \
    && "$bin" report --html site --quiet)
group="$(grep -o 'href="groups/[^"]*"' "$work/site/index.html" | head -n 1 | sed 's/href="//; s/"$//')"
mkdir -p docs/images
shoot() {
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/profile" \
        --window-size="$3" --screenshot="$2" "file://$1" 2>/dev/null
    echo "wrote $2"
}
shoot "$work/replay.html" docs/images/replay.png 1100,1320
shoot "$work/site/$group" docs/images/group.png 1100,820
