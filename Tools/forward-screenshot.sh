#!/usr/bin/env bash
# Makes docs/images/forward-bugsink-*.png: a sample crash posted to `crashtrail serve --forward`, as the tracker it was
# forwarded to shows it (Bugsink, started on loopback by Tools/Bugsink/bugsink_harness.py), rendered by headless
# Chromium. Needs chromium (apt-get install chromium) and bugsink (pip install bugsink).
#   Tools/forward-screenshot.sh
set -euo pipefail
cd "$(dirname "$0")/.."
browser="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
[ -n "$browser" ] || { echo "error: Chromium is not installed: apt-get install chromium (or set CHROMIUM)" >&2; exit 1; }
python3 -c "import bugsink" 2>/dev/null || { echo "error: bugsink is not installed: pip install bugsink" >&2; exit 1; }
swift build --product crashtrail >&2
bin="$(swift build --show-bin-path)/crashtrail"
work="$(mktemp -d)"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

python3 Tools/Bugsink/bugsink_harness.py > "$work/bugsink.json" 2> "$work/bugsink.err" &
pids+=($!)
for _ in $(seq 1 300); do grep -q dsn "$work/bugsink.json" 2>/dev/null && break; sleep 0.1; done
dsn="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["dsn"])' "$work/bugsink.json")"
base="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["base_url"])' "$work/bugsink.json")"

manifest="$PWD/Samples/PirateBay/Sources/PirateBay/piratebay.yml"
"$bin" serve --listen 127.0.0.1:0 --store "$work/store.sqlite" --manifest "$manifest" --forward "$dsn" --forward-hold 0 \
    --public-url https://crashes.example.com > "$work/serve.out" 2> "$work/serve.err" &
pids+=($!)
for _ in $(seq 1 300); do grep -q "listening on" "$work/serve.out" 2>/dev/null && break; sleep 0.1; done
port="$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/serve.out")"
key="$(grep -o 'http[s]*://[0-9a-f]*@' "$work/serve.out" | head -n 1 | sed 's|.*//||; s|@||')"
answer="$(curl -s -H "Authorization: Bearer $key" --data-binary @Samples/reports/kscrash-user-ct1.json "http://127.0.0.1:$port/api/1/reports")"
id="$(echo "$answer" | python3 -c 'import json,sys; print(json.load(sys.stdin)["ids"][0])')"
event="$(echo "$id" | tr -d '-' | tr 'A-F' 'a-f' | cut -c1-32)"
for _ in $(seq 1 300); do
    "$bin" forward --status --store "$work/store.sqlite" | grep -q "delivered   1" && break
    sleep 0.1
done
# The event's page in Bugsink: its issue and event keys, from Bugsink's database.
db="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["db_path"])' "$work/bugsink.json")"
page="$(python3 - "$db" "$event" <<'PY'
import sqlite3, sys, uuid
row = sqlite3.connect(sys.argv[1]).execute("SELECT issue_id, id FROM events_event WHERE event_id = ?", (sys.argv[2],)).fetchone()
print(f"/issues/issue/{uuid.UUID(str(row[0]))}/event/{uuid.UUID(str(row[1]))}/breadcrumbs/")
PY
)"
mkdir -p docs/images
# The harness's test-only login route signs the headless browser in, then opens the event's page.
shoot() {  # shoot PAGE FILE HEIGHT
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/profile" --window-size="1200,$3" \
        --virtual-time-budget=5000 --screenshot="$2" "$base/__test__/login/?next=$1" 2>/dev/null
    echo "wrote $2 (event $event)"
}
shoot "$page" docs/images/forward-bugsink-breadcrumbs.png 1000
shoot "${page%breadcrumbs/}details/" docs/images/forward-bugsink-details.png 1900
