#!/usr/bin/env bash
# Measures crashtrail serve under wrk, serve --forward under the same load, and crashtrail ingest of the same events
# as files, in one run: accepted events per second, the process's CPU seconds per stored event (user + system, from
# /proc for serve and from getrusage for ingest, so wrk's share of the cores does not enter), p50 and p99 latency,
# every 2xx stored (and, with --forward, delivered once), and the service's peak memory.
#
#   Tools/serve-bench.sh [SECONDS] [CONNECTIONS]        defaults: 10 s, 8 connections, 3 runs (RUNS)
#
# serve --forward sends to a minimal Sentry-compatible sink on loopback (Python asyncio, at the lowest priority, as it
# stands for a tracker on another machine); its runs alternate with serve's. Its CPU per stored event counts the load's
# seconds only: what forwarding does after, draining the outbox, is not in it. FORWARD=0 leaves these runs out.
#
# Each request is a Sentry envelope of Samples/reports/sentry-event-contexts-ct1.json (a 5 KB event with a ct1:
# trail) under an event ID of its own (Tools/serve-bench.lua). The batch baseline ingests the same number of such
# envelopes, written as files, into an empty store. Stored counts include requests still in flight when wrk stops.
# Environment: BENCH_DIR (default /tmp/crashtrail-serve-bench), RUNS (default 3; the table shows medians), CRASHTRAIL (a
# crashtrail binary to measure instead of building this checkout: another build, for a comparison in one run),
# SERVE_ARGS (more options for serve; by default the rate limits are lifted), FORWARD.
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
FORWARD_RATES=(); FORWARD_P99S=(); FORWARD_CPUS=(); FORWARD_IDLE_CPUS=(); FORWARD_STORED=0; FORWARD_DELIVERED=0; FORWARD_ONCE=0
PIDS=()
trap 'for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done' EXIT
# The CPU ticks (user + system) process $1 has used.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# The CPU ticks process $1's threads under SCHED_IDLE (policy 5: forwarding's) have used, those alive now.
idle_ticks() { cat /proc/"$1"/task/*/stat 2>/dev/null | awk '$41 == 5 {n += $14 + $15} END {print n + 0}'; }

SINK=""
if [ "${FORWARD:-1}" != 0 ]; then
    # The upstream of serve --forward (Tools/bench_sink.py), at the lowest priority: it stands for a tracker on another
    # machine, which takes none of these cores.
    nice -n 19 python3 Tools/bench_sink.py > "$DIR/sink.ports" &
    PIDS+=($!)
    for _ in $(seq 1 50); do [ -s "$DIR/sink.ports" ] && break; sleep 0.1; done
    SINK="http://0123456789abcdef0123456789abcdef@127.0.0.1:$(awk '{print $1}' "$DIR/sink.ports")/1"
fi
# What the sink received since it was last asked: "EVENTS REPEATED".
sink_counts() { python3 -c "import socket,sys; s=socket.create_connection(('127.0.0.1', int(sys.argv[1]))); print(s.makefile().readline().strip())" "$(awk '{print $2}' "$DIR/sink.ports")"; }

# One wrk run against a new service: KIND is "serve" or "forward" (serve --forward to the sink).
run() {
    local kind="$1" run="$2" extra=()
    [ "$kind" = forward ] && extra=(--forward "$SINK" --forward-hold 0)
    # The service, on a free port and a new store, its DSN read from what it prints.
    rm -f "$DIR"/serve.sqlite*
    # shellcheck disable=SC2086 # SERVE_ARGS is a list of options
    "$BIN/crashtrail" serve --listen 127.0.0.1:0 --store "$DIR/serve.sqlite" --manifest "$MANIFEST" --quiet $SERVE_ARGS \
        "${extra[@]}" --quarantine "$DIR/quarantine" > "$DIR/serve.out" 2> "$DIR/serve.err" &
    PID=$!
    PIDS+=($PID)
    for _ in $(seq 1 100); do grep -q "DSN of project" "$DIR/serve.out" 2>/dev/null && break; sleep 0.1; done
    DSN=$(grep -o 'http://[^ ]*' "$DIR/serve.out" | head -n 1)
    KEY=$(echo "$DSN" | sed -E 's|http://([^@]*)@.*|\1|')
    PORT=$(echo "$DSN" | sed -E 's|.*:([0-9]+)/[0-9]+$|\1|')
    echo "wrk run $run of $RUNS ($kind): $CONNECTIONS connections for $SECONDS_RUN s..." >&2
    local before idle_before
    [ "$kind" = forward ] && sink_counts > /dev/null
    before=$(ticks $PID)
    idle_before=$(idle_ticks $PID)
    SERVE_BENCH_EVENT="$EVENT" SERVE_BENCH_KEY="$KEY" wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" --latency \
        -s Tools/serve-bench.lua "http://127.0.0.1:$PORT/api/1/envelope/" > "$DIR/wrk.txt"
    [ "$kind" = serve ] && PEAKS+=("$(grep VmHWM "/proc/$PID/status" | awk '{print $2}')")
    sleep 0.5 # the requests still in flight when wrk stopped are stored, and count
    local used=$(( $(ticks $PID) - before )) idle_used=$(( $(idle_ticks $PID) - idle_before ))
    if [ "$kind" = forward ]; then
        # The outbox drains before the service stops, so every stored report can be counted at the sink.
        for _ in $(seq 1 1200); do
            "$BIN/crashtrail" forward --status --format json --store "$DIR/serve.sqlite" \
                | python3 -c 'import json,sys; s=json.load(sys.stdin); sys.exit(0 if s and s[0]["waiting"] + s[0]["retrying"] == 0 else 1)' && break
            sleep 0.1
        done
    fi
    kill -TERM $PID
    wait $PID || true
    local stored
    stored=$("$BIN/crashtrail" list --reports --format json --store "$DIR/serve.sqlite" | python3 -c "import json,sys; print(len(json.load(sys.stdin)))")
    local rate p99 cpu
    rate=$(grep -Eo 'Requests/sec: *[0-9.]+' "$DIR/wrk.txt" | grep -Eo '[0-9.]+$')
    p99=$(grep -E '^ +99%' "$DIR/wrk.txt" | awk '{print $2}')
    cpu=$(python3 -c "print($used / $(getconf CLK_TCK) / max(1, $stored))")
    if [ "$kind" = forward ]; then
        FORWARD_RATES+=("$rate"); FORWARD_P99S+=("$p99"); FORWARD_CPUS+=("$cpu"); FORWARD_STORED=$((FORWARD_STORED + stored))
        FORWARD_IDLE_CPUS+=("$(python3 -c "print($idle_used / $(getconf CLK_TCK) / max(1, $stored))")")
        local received
        received=$(sink_counts)
        FORWARD_DELIVERED=$((FORWARD_DELIVERED + ${received% *}))
        FORWARD_ONCE=$((FORWARD_ONCE + ${received#* }))
        return
    fi
    REQUESTS=$(grep -Eo '^ *[0-9]+ requests in' "$DIR/wrk.txt" | grep -Eo '[0-9]+')
    NON2XX=$(grep -Eo 'Non-2xx or 3xx responses: [0-9]+' "$DIR/wrk.txt" | grep -Eo '[0-9]+$' || echo 0)
    grep -q 'Socket errors' "$DIR/wrk.txt" && ERRORS=$(grep -Eo 'Socket errors:.*' "$DIR/wrk.txt")
    RATES+=("$rate")
    P50S+=("$(grep -E '^ +50%' "$DIR/wrk.txt" | awk '{print $2}')")
    P99S+=("$p99")
    TOTAL_ANSWERED=$((TOTAL_ANSWERED + REQUESTS - NON2XX)); TOTAL_STORED=$((TOTAL_STORED + stored)); TOTAL_NON2XX=$((TOTAL_NON2XX + NON2XX))
    CPUS+=("$cpu")
}
for run in $(seq 1 "$RUNS"); do
    run serve "$run"
    [ -n "$SINK" ] && run forward "$run"
done

# The batch baseline: as many envelopes as the last run answered, written as files, ingested into an empty store.
echo "Writing $REQUESTS envelopes as files for the batch baseline..." >&2
python3 Tools/bench_envelopes.py "$EVENT" "$DIR/files" "$REQUESTS"
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

python3 - "${RATES[*]}" "${BATCH_RATES[*]}" "${P50S[*]}" "${P99S[*]}" "${PEAKS[*]}" "${CPUS[*]}" "${BATCH_CPUS[*]}" \
    "${FORWARD_RATES[*]:-}" "${FORWARD_P99S[*]:-}" "${FORWARD_CPUS[*]:-}" "${FORWARD_IDLE_CPUS[*]:-}" <<PY
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
if sys.argv[8].strip():
    forward = statistics.median(float(x) for x in sys.argv[8].split())
    forward_p99 = statistics.median(ms(x) for x in sys.argv[9].split())
    forward_cpu = statistics.median(float(x) for x in sys.argv[10].split())
    print(f"| crashtrail serve --forward, accepted events/s / serve | {forward:,.0f} ({forward / rate:.2f}x) |")
    forward_idle = statistics.median(float(x) for x in sys.argv[11].split())
    print(f"| CPU per stored event under the load, serve --forward: all / at normal priority (serve's: {cpu * 1e3:.3f} ms) | "
          f"{forward_cpu * 1e3:.3f} ms / {(forward_cpu - forward_idle) * 1e3:.3f} ms ({(forward_cpu - forward_idle) / cpu:.2f}x) |")
    print(f"| serve --forward latency p99 | {forward_p99:.1f} ms |")
    print(f"| serve --forward stored / delivered / delivered more than once, all runs | {int('$FORWARD_STORED'):,} / {int('$FORWARD_DELIVERED'):,} / $FORWARD_ONCE |")
PY
