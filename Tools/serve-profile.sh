#!/usr/bin/env bash
# Where crashtrail serve's CPU goes, per stored event, against crashtrail ingest of the same events: `perf record` of
# serve under the serve benchmark's load, then of ingest of as many such envelopes written as files. Both sample CPU
# time (cpu-clock, 999 Hz, call graphs), so each figure is microseconds of CPU per stored event.
#
#   Tools/serve-profile.sh [SECONDS]                   default: 10 s of load, 8 connections
#
# Prints, for serve and ingest and their difference: CPU per event by library, by stage (the frames a sample's stack
# holds: parse and derivation, the group commit, the event loops, the HTTP server, forwarding), and the symbols whose
# time differs most. Needs perf (Debian's linux-perf) and wrk.
# Environment: CRASHTRAIL (a crashtrail binary; default: build this checkout in release), BENCH_DIR (default
# /tmp/crashtrail-serve-profile), SERVE_ARGS (more options for serve; by default its rate limits are lifted),
# FORWARD (an upstream DSN: profile serve --forward to it instead).
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_RUN="${1:-10}"
DIR="${BENCH_DIR:-/tmp/crashtrail-serve-profile}"
MANIFEST=Samples/PirateBay/Sources/PirateBay/piratebay.yml
EVENT=Samples/reports/sentry-event-contexts-ct1.json
for tool in perf wrk; do
    command -v "$tool" >/dev/null || { echo "Error: $tool is missing; install it with apt-get install linux-perf wrk" >&2; exit 1; }
done
if [ -n "${CRASHTRAIL:-}" ]; then
    BIN="$CRASHTRAIL"
else
    echo "Building the release binary..." >&2
    swift build -c release --scratch-path .build-ingest-rel --product crashtrail >&2
    BIN="$(swift build -c release --scratch-path .build-ingest-rel --show-bin-path)/crashtrail"
fi
SERVE_ARGS="${SERVE_ARGS---events-per-minute 0 --trails-per-minute 0 --sessions-per-minute 0}"
FORWARD_ARGS=()
[ -n "${FORWARD:-}" ] && FORWARD_ARGS=(--forward "$FORWARD" --forward-hold 0)
rm -rf "$DIR" && mkdir -p "$DIR"

# shellcheck disable=SC2086 # SERVE_ARGS is a list of options
"$BIN" serve --listen 127.0.0.1:0 --store "$DIR/serve.sqlite" --manifest "$MANIFEST" --quiet --quarantine "$DIR/q" \
    $SERVE_ARGS "${FORWARD_ARGS[@]}" > "$DIR/serve.out" 2> "$DIR/serve.err" &
PID=$!
trap 'kill $PID 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do grep -q "DSN of project" "$DIR/serve.out" 2>/dev/null && break; sleep 0.1; done
DSN=$(grep -o 'http://[^ ]*' "$DIR/serve.out" | head -n 1)
KEY=$(echo "$DSN" | sed -E 's|http://([^@]*)@.*|\1|')
PORT=$(echo "$DSN" | sed -E 's|.*:([0-9]+)/[0-9]+$|\1|')
echo "Profiling serve under wrk for $SECONDS_RUN s..." >&2
perf record -e cpu-clock -F 999 -g -p "$PID" -o "$DIR/serve.data" > /dev/null 2>&1 &
PERF=$!
sleep 0.3
SERVE_BENCH_EVENT="$EVENT" SERVE_BENCH_KEY="$KEY" wrk -t2 -c8 -d"${SECONDS_RUN}s" -s Tools/serve-bench.lua \
    "http://127.0.0.1:$PORT/api/1/envelope/" > "$DIR/wrk.txt"
sleep 0.5 # the requests in flight when wrk stopped are stored, and count
kill -INT $PERF
wait $PERF || true
kill -TERM $PID
wait $PID || true
trap - EXIT
STORED=$("$BIN" list --reports --format json --store "$DIR/serve.sqlite" | python3 -c "import json,sys; print(len(json.load(sys.stdin)))")

echo "Writing $STORED envelopes as files and profiling ingest of them..." >&2
python3 Tools/bench_envelopes.py "$EVENT" "$DIR/files" "$STORED"
find "$DIR/files" -type f -exec cat {} + > /dev/null
perf record -e cpu-clock -F 999 -g -o "$DIR/ingest.data" -- "$BIN" ingest "$DIR/files" --store "$DIR/ingest.sqlite" \
    --manifest "$MANIFEST" --quarantine "$DIR/iq" --quiet > /dev/null 2>&1

for kind in serve ingest; do perf script -i "$DIR/$kind.data" 2> /dev/null > "$DIR/$kind.txt"; done
python3 - "$DIR" "$STORED" "$(grep -Eo 'Requests/sec: *[0-9.]+' "$DIR/wrk.txt" | grep -Eo '[0-9.]+$')" <<'PY'
import collections, re, sys
folder, stored, rate = sys.argv[1], int(sys.argv[2]), sys.argv[3]
HZ = 999
# A sample's stack holds one of these frames (the first that matches decides): the stage it belongs to.
STAGES = [
    ("forwarding", ("ForwardWorker", "prepareForwarding", "UpstreamClient", "AsyncHTTPClient", "BackgroundThread")),
    ("parse and derivation", ("PayloadProcessorV5steps", "PayloadProcessorV7process")),
    ("group commit", ("GroupCommitter",)),
    ("envelope summary", ("SentryEnvelopeSummary",)),
    ("event loops (sockets, HTTP parsing)", ("SelectableEventLoop",)),
    ("HTTP server and routes", ("HummingbirdCore", "Hummingbird", "IntakeRoutes")),
]
def samples(path):
    """Each sample: (library of its leaf, leaf symbol, every frame of its stack as one text)."""
    out, stack = [], []
    for line in open(path, errors="replace"):
        if not line.strip():
            if stack:
                symbol, library = stack[0]
                out.append((library, symbol, ";".join(s for s, _ in stack)))
            stack = []
        elif line[0] in " \t":
            match = re.match(r"\s*[0-9a-f]+ (.*) \((.*)\)$", line.rstrip())
            if match:
                stack.append((re.sub(r"\+0x[0-9a-f]+$", "", match.group(1)), match.group(2).rsplit("/", 1)[-1]))
    return out
def tally(rows):
    libraries, symbols, stages = collections.Counter(), collections.Counter(), collections.Counter()
    for library, symbol, stack in rows:
        libraries[library] += 1
        symbols[f"{symbol[:90]} ({library})"] += 1
        stages[next((name for name, frames in STAGES if any(f in stack for f in frames)), "other (unwound stacks, threads' idle work)")] += 1
    return libraries, symbols, stages
serve, ingest = tally(samples(f"{folder}/serve.txt")), tally(samples(f"{folder}/ingest.txt"))
us = lambda count: count / HZ / stored * 1e6
print(f"serve stored {stored:,} events ({rate} requests/s); ingest the same number as files. CPU per stored event, µs:")
print()
for title, index, limit in (("library", 0, 12), ("stage", 2, 12), ("symbol (the 25 that differ most)", 1, 25)):
    print(f"| {title} | serve | ingest | difference |")
    print("|---|---:|---:|---:|")
    if index != 1:
        print(f"| all | {us(sum(serve[0].values())):.0f} | {us(sum(ingest[0].values())):.0f} | "
              f"{us(sum(serve[0].values()) - sum(ingest[0].values())):+.0f} |")
    keys = sorted(set(serve[index]) | set(ingest[index]), key=lambda k: -abs(serve[index][k] - ingest[index][k]))
    for key in keys[:limit]:
        a, b = serve[index][key], ingest[index][key]
        print(f"| {key.replace('|', '/')} | {us(a):.1f} | {us(b):.1f} | {us(a - b):+.1f} |")
    print()
PY
