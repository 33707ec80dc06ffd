#!/usr/bin/env bash
# Measures crashtrail serve under wrk against crashtrail ingest of the same events as files, in one run: accepted
# events per second, the process's CPU seconds per stored event (user + system, from /proc for serve and from
# getrusage for ingest, so wrk's share of the cores does not enter), p50 and p99 latency, every 2xx stored, and the
# service's peak memory.
#
#   Tools/serve-bench.sh [SECONDS] [CONNECTIONS]        defaults: 10 s, 8 connections, 3 runs (RUNS)
#
# Each request is a Sentry envelope of Samples/reports/sentry-event-contexts-ct1.json (a 5 KB event with a ct1:
# trail) under an event ID of its own (Tools/serve-bench.lua). The batch baseline ingests the same number of such
# envelopes, written as files, into an empty store. Stored counts include requests still in flight when wrk stops.
# Environment: BENCH_DIR (default /tmp/crashtrail-serve-bench), RUNS (default 3; the table shows medians), CRASHTRAIL (a
# crashtrail binary to measure instead of building this checkout: another build, for a comparison in one run),
# SERVE_ARGS (more options for serve; by default the rate limits are lifted).
# Prints a Markdown table for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_RUN="${1:-10}"
CONNECTIONS="${2:-8}"
DIR="${BENCH_DIR:-/tmp/crashtrail-serve-bench}"
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
# One project takes every event: its rate limits are lifted so the bench measures the service, not the limit. A build
# that predates the limits takes SERVE_ARGS="" (for a comparison in one run).
SERVE_ARGS="${SERVE_ARGS---events-per-minute 0 --trails-per-minute 0}"
rm -rf "$DIR" && mkdir -p "$DIR"

RUNS="${RUNS:-3}"
RATES=(); P50S=(); P99S=(); PEAKS=(); CPUS=(); TOTAL_ANSWERED=0; TOTAL_STORED=0; TOTAL_NON2XX=0; ERRORS=none
# The CPU ticks (user + system) process $1 has used.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
for run in $(seq 1 "$RUNS"); do
    # The service, on a free port and a new store, its DSN read from what it prints.
    rm -f "$DIR"/serve.sqlite*
    "$BIN/crashtrail" serve --listen 127.0.0.1:0 --store "$DIR/serve.sqlite" --manifest "$MANIFEST" --quiet $SERVE_ARGS \
        --quarantine "$DIR/quarantine" > "$DIR/serve.out" 2> "$DIR/serve.err" &
    PID=$!
    trap 'kill $PID 2>/dev/null || true' EXIT
    for _ in $(seq 1 100); do grep -q "DSN of project" "$DIR/serve.out" 2>/dev/null && break; sleep 0.1; done
    DSN=$(grep -o 'http://[^ ]*' "$DIR/serve.out" | head -n 1)
    KEY=$(echo "$DSN" | sed -E 's|http://([^@]*)@.*|\1|')
    PORT=$(echo "$DSN" | sed -E 's|.*:([0-9]+)/[0-9]+$|\1|')
    echo "wrk run $run of $RUNS: $CONNECTIONS connections for $SECONDS_RUN s..." >&2
    TICKS_BEFORE=$(ticks $PID)
    SERVE_BENCH_EVENT="$EVENT" SERVE_BENCH_KEY="$KEY" wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" --latency \
        -s Tools/serve-bench.lua "http://127.0.0.1:$PORT/api/1/envelope/" > "$DIR/wrk.txt"
    PEAKS+=("$(grep VmHWM "/proc/$PID/status" | awk '{print $2}')")
    sleep 0.5 # the requests still in flight when wrk stopped are stored, and count
    SERVE_TICKS=$(( $(ticks $PID) - TICKS_BEFORE ))
    kill -TERM $PID
    wait $PID || true
    trap - EXIT
    REQUESTS=$(grep -Eo '^ *[0-9]+ requests in' "$DIR/wrk.txt" | grep -Eo '[0-9]+')
    NON2XX=$(grep -Eo 'Non-2xx or 3xx responses: [0-9]+' "$DIR/wrk.txt" | grep -Eo '[0-9]+$' || echo 0)
    grep -q 'Socket errors' "$DIR/wrk.txt" && ERRORS=$(grep -Eo 'Socket errors:.*' "$DIR/wrk.txt")
    RATES+=("$(grep -Eo 'Requests/sec: *[0-9.]+' "$DIR/wrk.txt" | grep -Eo '[0-9.]+$')")
    P50S+=("$(grep -E '^ +50%' "$DIR/wrk.txt" | awk '{print $2}')")
    P99S+=("$(grep -E '^ +99%' "$DIR/wrk.txt" | awk '{print $2}')")
    STORED=$("$BIN/crashtrail" list --reports --format json --store "$DIR/serve.sqlite" | python3 -c "import json,sys; print(len(json.load(sys.stdin)))")
    TOTAL_ANSWERED=$((TOTAL_ANSWERED + REQUESTS - NON2XX)); TOTAL_STORED=$((TOTAL_STORED + STORED)); TOTAL_NON2XX=$((TOTAL_NON2XX + NON2XX))
    CPUS+=("$(python3 -c "print($SERVE_TICKS / $(getconf CLK_TCK) / max(1, $STORED))")")
done

# The batch baseline: as many envelopes as the last run answered, written as files, ingested into an empty store.
echo "Writing $REQUESTS envelopes as files for the batch baseline..." >&2
python3 - "$EVENT" "$DIR/files" "$REQUESTS" <<'PY'
import os, sys
event, folder, count = open(sys.argv[1], "rb").read(), sys.argv[2], int(sys.argv[3])
os.makedirs(folder, exist_ok=True)
for n in range(count):
    eid = "%08x%024x" % (0xBA7C, n + 1)
    item = event.replace(b"74DDB1F8-B6F2-1F71-69C4-291C85DE8EBC", eid.encode())
    body = b'{"event_id":"' + eid.encode() + b'"}\n{"type":"event","length":' + str(len(item)).encode() + b"}\n" + item + b"\n"
    with open(os.path.join(folder, "%s.envelope" % eid), "wb") as out:
        out.write(body)
PY
find "$DIR/files" -type f -exec cat {} + > /dev/null
BATCH_RATES=(); BATCH_CPUS=()
for run in $(seq 1 "$RUNS"); do
    rm -rf "$DIR"/batch.sqlite* "$DIR/bq"
    # Wall seconds and CPU seconds (user + system) of the ingest process.
    read -r WALL CPU < <(python3 - "$BIN/crashtrail" ingest "$DIR/files" --store "$DIR/batch.sqlite" --manifest "$MANIFEST" \
        --quarantine "$DIR/bq" --quiet <<'PY'
import resource, subprocess, sys, time
start = time.monotonic()
subprocess.run(sys.argv[1:], check=True)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(time.monotonic() - start, usage.ru_utime + usage.ru_stime)
PY
)
    BATCH_RATES+=("$(python3 -c "print($REQUESTS / $WALL)")")
    BATCH_CPUS+=("$(python3 -c "print($CPU / $REQUESTS)")")
done

python3 - "${RATES[*]}" "${BATCH_RATES[*]}" "${P50S[*]}" "${P99S[*]}" "${PEAKS[*]}" "${CPUS[*]}" "${BATCH_CPUS[*]}" <<PY
import statistics, sys
def ms(text):
    value = float(text.rstrip("msu"))
    return value / 1000 if text.endswith("us") else value * 1000 if text.endswith("s") and not text.endswith("ms") else value
rates = [float(x) for x in sys.argv[1].split()]
batch = [float(x) for x in sys.argv[2].split()]
p50 = [ms(x) for x in sys.argv[3].split()]
p99 = [ms(x) for x in sys.argv[4].split()]
peak = max(int(x) for x in sys.argv[5].split())
cpu = statistics.median(float(x) for x in sys.argv[6].split())
batch_cpu = statistics.median(float(x) for x in sys.argv[7].split())
rate, base = statistics.median(rates), statistics.median(batch)
print(f"Medians of $RUNS runs.")
print()
print("| measure | value |")
print("|---|---:|")
print(f"| crashtrail serve, accepted events/s ($CONNECTIONS connections, wrk, $SECONDS_RUN s a run) | {rate:,.0f} |")
print(f"| crashtrail ingest of {int('$REQUESTS'):,} such envelopes as files, events/s | {base:,.0f} |")
print(f"| serve / ingest | {rate / base:.2f}x |")
print(f"| CPU per stored event: serve / ingest | {cpu * 1e3:.3f} ms / {batch_cpu * 1e3:.3f} ms ({cpu / batch_cpu:.2f}x) |")
print(f"| latency p50 / p99 | {statistics.median(p50):.1f} ms / {statistics.median(p99):.1f} ms |")
print(f"| answered 2xx / stored / non-2xx, all runs | {int('$TOTAL_ANSWERED'):,} / {int('$TOTAL_STORED'):,} / $TOTAL_NON2XX |")
print(f"| peak resident memory of serve | {peak / 1024:.0f} MiB |")
print(f"| socket errors | $ERRORS |")
PY
