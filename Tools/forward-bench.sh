#!/usr/bin/env bash
# Measures crashtrail serve --forward under the serve benchmark's load against serve alone, in one run: accepted events
# per second and p99 latency of each, and for --forward the time from a report's acknowledgement to the upstream's
# 200 (p50, p99, from the outbox's queued and delivered times once it drained).
#
#   Tools/forward-bench.sh [SECONDS] [CONNECTIONS]      defaults: 10 s, 8 connections, 3 runs of each (RUNS)
#
# The upstream is a minimal Sentry-compatible sink on loopback (Python asyncio, keep-alive, answers 200 at once, at nice
# 19 as it stands for a tracker on another machine), so the figures are crashtrail's own cost of forwarding rather
# than a tracker's ingest rate. The load is
# Tools/serve-bench.lua's: unique Sentry envelopes of Samples/reports/sentry-event-contexts-ct1.json.
# Environment: BENCH_DIR (default /tmp/crashtrail-forward-bench), RUNS, CRASHTRAIL (a binary to measure), SERVE_ARGS
# (more options for serve; by default the rate limits are lifted, so the bench measures the service, not the limit; a
# build that predates the limits takes SERVE_ARGS="").
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_RUN="${1:-10}"
CONNECTIONS="${2:-8}"
RUNS="${RUNS:-3}"
DIR="${BENCH_DIR:-/tmp/crashtrail-forward-bench}"
MANIFEST=Samples/PirateBay/Sources/PirateBay/piratebay.yml
EVENT=Samples/reports/sentry-event-contexts-ct1.json

command -v wrk >/dev/null || { echo "Error: wrk is missing; install it with apt-get install wrk" >&2; exit 1; }
if [ -n "${CRASHTRAIL:-}" ]; then
    BIN="$(cd "$(dirname "$CRASHTRAIL")" && pwd)"
else
    echo "Building the release binary..." >&2
    swift build -c release --scratch-path .build-ingest-rel --product crashtrail >&2
    BIN="$(swift build -c release --scratch-path .build-ingest-rel --show-bin-path)"
fi
SERVE_ARGS="${SERVE_ARGS---events-per-minute 0 --trails-per-minute 0}"
rm -rf "$DIR" && mkdir -p "$DIR"
PIDS=()
trap 'for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done' EXIT

# The sink (Tools/bench_sink.py), at the lowest priority: it stands for a tracker on another machine, which takes
# none of these cores.
nice -n 19 python3 Tools/bench_sink.py > "$DIR/sink.ports" &
PIDS+=($!)
for _ in $(seq 1 50); do [ -s "$DIR/sink.ports" ] && break; sleep 0.1; done
SINK="http://0123456789abcdef0123456789abcdef@127.0.0.1:$(awk '{print $1}' "$DIR/sink.ports")/1"

run() {  # run KIND N: one wrk run against serve (KIND alone or forward); appends "rate p99ms" to DIR/KIND.txt
    local kind="$1" store="$DIR/$1-$2.sqlite" extra=()
    [ "$kind" = forward ] && extra=(--forward "$SINK" --forward-hold 0)
    # shellcheck disable=SC2086 # SERVE_ARGS is a list of options
    "$BIN/crashtrail" serve --listen 127.0.0.1:0 --store "$store" --manifest "$MANIFEST" --quiet --quarantine "$DIR/q" \
        $SERVE_ARGS "${extra[@]}" > "$DIR/serve.out" 2> "$DIR/serve.err" &
    local pid=$!
    PIDS+=($pid)
    for _ in $(seq 1 100); do grep -q "DSN of project" "$DIR/serve.out" 2>/dev/null && break; sleep 0.1; done
    local dsn key port
    dsn=$(grep -o 'http://[^ ]*' "$DIR/serve.out" | head -n 1)
    key=$(echo "$dsn" | sed -E 's|http://([^@]*)@.*|\1|')
    port=$(echo "$dsn" | sed -E 's|.*:([0-9]+)/[0-9]+$|\1|')
    echo "$kind run $2: $CONNECTIONS connections for $SECONDS_RUN s..." >&2
    SERVE_BENCH_EVENT="$EVENT" SERVE_BENCH_KEY="$key" wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" --latency \
        -s Tools/serve-bench.lua "http://127.0.0.1:$port/api/1/envelope/" > "$DIR/wrk.txt"
    if [ "$kind" = forward ]; then
        # Let the outbox drain before stopping, so every report has its delivery time.
        for _ in $(seq 1 600); do
            "$BIN/crashtrail" forward --status --format json --store "$store" \
                | python3 -c 'import json,sys; s=json.load(sys.stdin); sys.exit(0 if s and s[0]["waiting"] + s[0]["retrying"] == 0 else 1)' && break
            sleep 0.1
        done
    fi
    kill -TERM $pid
    wait $pid || true
    local rate p99
    rate=$(grep -Eo 'Requests/sec: *[0-9.]+' "$DIR/wrk.txt" | grep -Eo '[0-9.]+$')
    p99=$(grep -E '^ +99%' "$DIR/wrk.txt" | awk '{print $2}')
    echo "$rate $p99" >> "$DIR/$kind.txt"
    if [ "$kind" = forward ]; then
        sqlite3 "$store" "SELECT delivered - queued FROM forwardOutbox WHERE state = 'delivered'" >> "$DIR/latency.txt"
        sqlite3 "$store" "SELECT COUNT(*) FROM report" >> "$DIR/stored.txt"
        sqlite3 "$store" "SELECT COUNT(*) FROM forwardOutbox WHERE state = 'delivered'" >> "$DIR/delivered.txt"
    fi
}
for n in $(seq 1 "$RUNS"); do
    run alone "$n"
    run forward "$n"
done

python3 - "$DIR" <<'PY'
import statistics, sys
d = sys.argv[1]
def ms(text):
    value = float(text.rstrip("msu"))
    return value / 1000 if text.endswith("us") else value * 1000 if text.endswith("s") and not text.endswith("ms") else value
def rows(kind):
    return [line.split() for line in open(f"{d}/{kind}.txt") if line.strip()]
alone, forward = rows("alone"), rows("forward")
ra, rf = statistics.median(float(r[0]) for r in alone), statistics.median(float(r[0]) for r in forward)
pa, pf = statistics.median(ms(r[1]) for r in alone), statistics.median(ms(r[1]) for r in forward)
lat = sorted(int(x) for x in open(f"{d}/latency.txt") if x.strip())
stored = sum(int(x) for x in open(f"{d}/stored.txt") if x.strip())
delivered = sum(int(x) for x in open(f"{d}/delivered.txt") if x.strip())
print(f"Medians of {len(alone)} runs of each, interleaved.")
print()
print("| measure | serve | serve --forward |")
print("|---|---:|---:|")
print(f"| accepted events/s | {ra:,.0f} | {rf:,.0f} ({rf / ra:.2f}x) |")
print(f"| latency p99 | {pa:.1f} ms | {pf:.1f} ms |")
print(f"| acknowledgement to the upstream's 200: p50 / p99 | | {lat[len(lat) // 2]} ms / {lat[int(len(lat) * 0.99)]} ms |")
print(f"| stored / delivered, all runs | | {stored:,} / {delivered:,} |")
PY
