#!/usr/bin/env bash
# What release health costs (SPEC section 20), in one run:
#  1. crashtrail serve's crash intake under wrk without and with a session item in each crash envelope (as Sentry's
#     mobile SDKs send the crashed session with the crash): accepted events per second, medians of RUNS runs each,
#     alternated, and their ratio;
#  2. crashtrail-health-bench: the store's bytes per million sessions (1 and 2 million, with a 10 % sample of trails).
#
#   Tools/health-bench.sh [SECONDS] [CONNECTIONS]        defaults: 10 s, 8 connections, 3 runs (RUNS)
#
# Environment: BENCH_DIR (default /tmp/crashtrail-health-bench), RUNS (default 3), SESSIONS_SIZE ("1000000 2000000").
# Prints Markdown tables for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_RUN="${1:-10}"
CONNECTIONS="${2:-8}"
DIR="${BENCH_DIR:-/tmp/crashtrail-health-bench}"
RUNS="${RUNS:-3}"
MANIFEST=Samples/PirateBay/Sources/PirateBay/piratebay.yml
EVENT=Samples/reports/sentry-event-contexts-ct1.json

command -v wrk >/dev/null || { echo "Error: wrk is missing; install it with apt-get install wrk" >&2; exit 1; }
echo "Building the release binaries..." >&2
swift build -c release --scratch-path .build-ingest-rel --product crashtrail >&2
swift build -c release --scratch-path .build-ingest-rel --product crashtrail-health-bench >&2
BIN="$(swift build -c release --scratch-path .build-ingest-rel --show-bin-path)"
# One project takes every event: its rate limits are lifted so the bench measures the service, not the limit. A build
# that predates the limits takes SERVE_ARGS="" (for a comparison in one run).
SERVE_ARGS="${SERVE_ARGS---events-per-minute 0 --trails-per-minute 0}"
rm -rf "$DIR" && mkdir -p "$DIR"

# One wrk run against a new service; prints "RATE STORED ANSWERED SESSIONS CPU_MS_PER_REQUEST".
run() {
    local sessions=$1
    rm -f "$DIR"/serve.sqlite*
    "$BIN/crashtrail" serve --listen 127.0.0.1:0 --store "$DIR/serve.sqlite" --manifest "$MANIFEST" --quiet $SERVE_ARGS \
        --quarantine "$DIR/quarantine" > "$DIR/serve.out" 2> "$DIR/serve.err" &
    local pid=$!
    for _ in $(seq 1 100); do grep -q "DSN of project" "$DIR/serve.out" 2>/dev/null && break; sleep 0.1; done
    local dsn key port
    dsn=$(grep -o 'http://[^ ]*' "$DIR/serve.out" | head -n 1)
    key=$(echo "$dsn" | sed -E 's|http://([^@]*)@.*|\1|')
    port=$(echo "$dsn" | sed -E 's|.*:([0-9]+)/[0-9]+$|\1|')
    SERVE_BENCH_EVENT="$EVENT" SERVE_BENCH_KEY="$key" SERVE_BENCH_SESSIONS="$sessions" wrk -t2 -c"$CONNECTIONS" \
        -d"${SECONDS_RUN}s" -s Tools/serve-bench.lua "http://127.0.0.1:$port/api/1/envelope/" > "$DIR/wrk.txt"
    # The service's CPU time (user and system, in clock ticks of 10 ms): less disturbed by a noisy disk than the rate.
    local ticks
    ticks=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    kill -TERM $pid
    wait $pid || true
    local rate requests non2xx stored counted
    rate=$(grep -Eo 'Requests/sec: *[0-9.]+' "$DIR/wrk.txt" | grep -Eo '[0-9.]+$')
    requests=$(grep -Eo '^ *[0-9]+ requests in' "$DIR/wrk.txt" | grep -Eo '[0-9]+')
    non2xx=$(grep -Eo 'Non-2xx or 3xx responses: [0-9]+' "$DIR/wrk.txt" | grep -Eo '[0-9]+$' || echo 0)
    stored=$("$BIN/crashtrail" list --reports --format json --store "$DIR/serve.sqlite" | python3 -c "import json,sys; print(len(json.load(sys.stdin)))")
    counted=$("$BIN/crashtrail" health --format json --store "$DIR/serve.sqlite" | python3 -c "import json,sys; print(sum(r['sessions'] for r in json.loads(sys.stdin.read().replace('null','0'))))")
    echo "$rate $stored $((requests - non2xx)) $counted $(python3 -c "print(round($ticks * 10 / max(1, $requests), 3))")"
}

WITHOUT=(); WITH=(); CPU0=(); CPU1=(); CHECKS=""
for r in $(seq 1 "$RUNS"); do
    echo "run $r of $RUNS: without sessions, then with..." >&2
    read -r rate stored answered counted cpu < <(run 0)
    WITHOUT+=("$rate"); CPU0+=("$cpu"); CHECKS+="without: $answered answered, $stored stored, $counted sessions; "
    read -r rate stored answered counted cpu < <(run 1)
    WITH+=("$rate"); CPU1+=("$cpu"); CHECKS+="with: $answered answered, $stored stored, $counted sessions; "
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
M0=$(median "${WITHOUT[@]}"); M1=$(median "${WITH[@]}")
C0=$(median "${CPU0[@]}"); C1=$(median "${CPU1[@]}")
echo
echo "| crash envelopes | events/s (median of $RUNS) | serve CPU ms per request (median) | runs (events/s) |"
echo "|---|---:|---:|---|"
echo "| event only | $M0 | $C0 | ${WITHOUT[*]} |"
echo "| event and its crashed session | $M1 | $C1 | ${WITH[*]} |"
echo
python3 -c "print(f'slowdown with sessions: {float($M0) / float($M1):.3f}x in events/s, {float($C1) / float($C0):.3f}x in CPU per request')"
echo "checks: $CHECKS" >&2
echo
"$BIN/crashtrail-health-bench" ${SESSIONS_SIZE:-1000000 2000000}
