#!/usr/bin/env bash
# The CPU an HTTP request costs before crashtrail serve does any work of its own, against serve itself, under the serve
# benchmark's load (wrk, 8 connections, Tools/serve-bench.lua's envelopes): requests per second and the server
# process's CPU microseconds (user + system, from /proc) per answered request, for
#   nio          a SwiftNIO channel handler that reads each body whole and answers 200 (Tools/HTTPFloor)
#   hummingbird  a Hummingbird 2 route that does the same, as serve's routes are served
#   serve        crashtrail serve, storing each event (its rate limits lifted, the sample manifest, as
#                Tools/serve-bench.sh runs it)
#
#   Tools/http-floor.sh [SECONDS] [CONNECTIONS]         defaults: 10 s, 8 connections, 3 runs of each (RUNS)
#
# The three alternate, run by run; the table shows medians. CPU counts from the server's start of the load to half a
# second after wrk stops (requests in flight are answered), over the requests wrk counted answered. A run whose server
# dies, answers an error or drops a connection stops the benchmark. Environment: RUNS, BENCH_DIR (default
# /tmp/crashtrail-http-floor), CRASHTRAIL (a crashtrail binary to measure, with crashtrail-http-floor beside it,
# instead of building this checkout). Prints a Markdown table for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_RUN="${1:-10}"
CONNECTIONS="${2:-8}"
RUNS="${RUNS:-3}"
DIR="${BENCH_DIR:-/tmp/crashtrail-http-floor}"
EVENT=Samples/reports/sentry-event-contexts-ct1.json
MANIFEST=Samples/PirateBay/Sources/PirateBay/piratebay.yml

command -v wrk >/dev/null || { echo "Error: wrk is missing; install it with apt-get install wrk" >&2; exit 1; }
if [ -n "${CRASHTRAIL:-}" ]; then
    BIN="$(cd "$(dirname "$CRASHTRAIL")" && pwd)"
else
    echo "Building the release binaries..." >&2
    swift build -c release --scratch-path .build-ingest-rel --product crashtrail >&2
    swift build -c release --scratch-path .build-ingest-rel --product crashtrail-http-floor >&2
    BIN="$(swift build -c release --scratch-path .build-ingest-rel --show-bin-path)"
fi
rm -rf "$DIR" && mkdir -p "$DIR"
PID=""
trap '[ -n "$PID" ] && kill "$PID" 2>/dev/null || true' EXIT

# A free loopback port.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# The CPU ticks (user + system) process $1 has used.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# One wrk run against a new server of KIND; appends "RATE CPU_US" to $DIR/KIND.
run() {
    local kind="$1" port key=0123456789abcdef0123456789abcdef
    rm -f "$DIR/server.out" "$DIR/server.err"
    if [ "$kind" = serve ]; then
        rm -rf "$DIR"/serve.sqlite* "$DIR/quarantine"
        "$BIN/crashtrail" serve --listen 127.0.0.1:0 --store "$DIR/serve.sqlite" --manifest "$MANIFEST" --quiet --events-per-minute 0 \
            --trails-per-minute 0 --quarantine "$DIR/quarantine" > "$DIR/server.out" 2> "$DIR/server.err" &
        PID=$!
        for _ in $(seq 1 100); do grep -q "DSN of project" "$DIR/server.out" 2>/dev/null && break; sleep 0.1; done
        local dsn
        dsn=$(grep -o 'http://[^ ]*' "$DIR/server.out" | head -n 1)
        key=$(echo "$dsn" | sed -E 's|http://([^@]*)@.*|\1|')
        port=$(echo "$dsn" | sed -E 's|.*:([0-9]+)/[0-9]+$|\1|')
    else
        port=$(free_port)
        "$BIN/crashtrail-http-floor" "$kind" "$port" > "$DIR/server.out" 2> "$DIR/server.err" &
        PID=$!
        for _ in $(seq 1 100); do grep -q "listening" "$DIR/server.out" 2>/dev/null && break; sleep 0.1; done
    fi
    grep -q "listen" "$DIR/server.out" || { echo "Error: the $kind server did not start: $(cat "$DIR/server.err")" >&2; exit 1; }
    echo "wrk run ($kind): $CONNECTIONS connections for $SECONDS_RUN s..." >&2
    local before after requests rate
    before=$(ticks "$PID")
    SERVE_BENCH_EVENT="$EVENT" SERVE_BENCH_KEY="$key" wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" \
        -s Tools/serve-bench.lua "http://127.0.0.1:$port/api/1/envelope/" > "$DIR/wrk.txt"
    sleep 0.5 # requests in flight when wrk stopped are answered, and their CPU counts
    kill -0 "$PID" 2>/dev/null || { echo "Error: the $kind server stopped during the run: $(cat "$DIR/server.err")" >&2; exit 1; }
    after=$(ticks "$PID")
    kill -TERM "$PID"
    wait "$PID" || true
    PID=""
    requests=$(grep -Eo '^ *[0-9]+ requests in' "$DIR/wrk.txt" | grep -Eo '[0-9]+')
    rate=$(grep -Eo 'Requests/sec: *[0-9.]+' "$DIR/wrk.txt" | grep -Eo '[0-9.]+$')
    if grep -qE 'Non-2xx|Socket errors' "$DIR/wrk.txt"; then
        echo "Error: $kind answered errors or dropped connections: $(grep -E 'Non-2xx|Socket errors' "$DIR/wrk.txt")" >&2
        exit 1
    fi
    local cpu
    cpu=$(python3 -c "print(($after - $before) / $(getconf CLK_TCK) / max(1, $requests) * 1e6)")
    echo "$rate $cpu" >> "$DIR/$kind"
}
for _ in $(seq 1 "$RUNS"); do
    for kind in nio hummingbird serve; do run "$kind"; done
done

python3 - "$DIR" <<'PY'
import statistics, sys
folder = sys.argv[1]
rows = {}
for kind in ("nio", "hummingbird", "serve"):
    pairs = [tuple(map(float, line.split())) for line in open(f"{folder}/{kind}")]
    rows[kind] = (statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs))
print("| server (medians) | requests/s | CPU per request |")
print("|---|---:|---:|")
names = {"nio": "SwiftNIO handler: read the body, answer 200", "hummingbird": "Hummingbird 2 route: read the body, answer 200",
         "serve": "crashtrail serve: store the event, answer 200"}
for kind, (rate, cpu) in rows.items():
    print(f"| {names[kind]} | {rate:,.0f} | {cpu:.0f} µs |")
PY
