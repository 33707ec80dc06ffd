#!/usr/bin/env bash
# What a trail whose crash has not come yet costs as the waiting trails grow (SPEC section 18), in one run:
#
# 1. ingest: SMALL, then LARGE trail files whose crashes never come, each into a new store (they all wait): the
#    seconds of each (median of RUNS) and their ratio. Cost proportional to the trails gives LARGE/SMALL.
# 2. serve: POSTS trails posted one after the other to /api/1/trails of a new store, then the same trails posted to a
#    store where WAITING trails wait already: each answer's time, the p50 and p99 of each and the ratio of the p99s
#    (medians of RUNS runs, the two stores alternated).
#
#   Tools/waiting-bench.sh [SMALL LARGE [WAITING [POSTS]]]    defaults: 1000 4000 10000 200
#
# Environment: CRASHTRAIL (a release crashtrail binary; else one is built), BENCH_DIR (default
# /tmp/crashtrail-waiting-bench), RUNS (default 3). Prints a Markdown table for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

SMALL="${1:-1000}"
LARGE="${2:-4000}"
WAITING="${3:-10000}"
POSTS="${4:-200}"
RUNS="${RUNS:-3}"
DIR="${BENCH_DIR:-/tmp/crashtrail-waiting-bench}"
MANIFEST=Samples/PirateBay/Sources/PirateBay/piratebay.yml

if [ -n "${CRASHTRAIL:-}" ]; then
    BIN="$(cd "$(dirname "$CRASHTRAIL")" && pwd)"
else
    echo "Building the release binaries..." >&2
    swift build -c release --scratch-path .build-ingest-rel --product crashtrail >&2
    BIN="$(swift build -c release --scratch-path .build-ingest-rel --show-bin-path)"
fi
CORPUS="$BIN/crashtrail-corpus"
if [ ! -x "$CORPUS" ]; then
    swift build -c release --scratch-path .build-ingest-rel --product crashtrail-corpus >&2
    CORPUS="$(swift build -c release --scratch-path .build-ingest-rel --show-bin-path)/crashtrail-corpus"
fi
mkdir -p "$DIR"
PIDS=()
trap 'for pid in "${PIDS[@]+"${PIDS[@]}"}"; do kill "$pid" 2>/dev/null || true; done' EXIT

# The trails, each set its own seed: the posted ones are sessions none of the waiting ones has.
for set in "small:$SMALL:11" "large:$LARGE:12" "waiting:$WAITING:13" "posts:$POSTS:14"; do
    IFS=: read -r name count seed <<<"$set"
    if [ ! -f "$DIR/$name.done" ] || [ "$(cat "$DIR/$name.done")" != "$count" ]; then
        echo "Generating $count trails ($name)..." >&2
        rm -rf "${DIR:?}/$name" && "$CORPUS" waiting "$DIR/$name" --count "$count" --seed "$seed" --manifest "$MANIFEST" >&2
        echo "$count" >"$DIR/$name.done"
    fi
done
mkdir -p "$DIR/no-reports"

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# 1. ingest
ingest_seconds() {
    rm -f "$DIR"/ingest.sqlite*
    local start end
    start=$(date +%s.%N)
    "$BIN/crashtrail" ingest "$DIR/no-reports" --trails "$DIR/$1" --manifest "$MANIFEST" --store "$DIR/ingest.sqlite" --quiet \
        >"$DIR/ingest.out" 2>"$DIR/ingest.err" || { echo "Error: ingest of $1 failed: $(tail -3 "$DIR/ingest.err")" >&2; exit 1; }
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f\n", b - a}'
}
SMALL_TIMES=(); LARGE_TIMES=()
for run in $(seq 1 "$RUNS"); do
    echo "ingest run $run of $RUNS..." >&2
    SMALL_TIMES+=("$(ingest_seconds small)")
    LARGE_TIMES+=("$(ingest_seconds large)")
done
SMALL_MEDIAN=$(median "${SMALL_TIMES[@]}")
LARGE_MEDIAN=$(median "${LARGE_TIMES[@]}")

# 2. serve: the store with WAITING trails is made once by ingest, then copied for each run.
rm -f "$DIR"/waiting.sqlite*
"$BIN/crashtrail" ingest "$DIR/no-reports" --trails "$DIR/waiting" --manifest "$MANIFEST" --store "$DIR/waiting.sqlite" --quiet \
    >/dev/null 2>"$DIR/ingest.err" || { echo "Error: ingest of the waiting trails failed: $(tail -3 "$DIR/ingest.err")" >&2; exit 1; }
post_latencies() {
    local store="$1" out="$2"
    # The service, on a free port, its DSN read from what it prints; its bound on waiting trails above what waits, so
    # that every post is kept rather than refused.
    "$BIN/crashtrail" serve --listen 127.0.0.1:0 --store "$store" --manifest "$MANIFEST" --quiet --trails-per-minute 0 \
        --trail-wait-limit $((WAITING + POSTS + 1)) \
        >"$DIR/serve.out" 2>"$DIR/serve.err" &
    local pid=$!
    PIDS+=($pid)
    for _ in $(seq 1 100); do grep -q "DSN of project" "$DIR/serve.out" 2>/dev/null && break; sleep 0.1; done
    local dsn
    dsn=$(grep -o 'http://[^ ]*' "$DIR/serve.out" | head -n 1)
    [ -n "$dsn" ] || { echo "Error: serve did not start: $(tail -3 "$DIR/serve.err")" >&2; exit 1; }
    python3 - "$dsn" "$DIR/posts" "$out" <<'PY'
import http.client, os, sys, time
dsn, folder, out = sys.argv[1:]
key = dsn.split("//")[1].split("@")[0]
host, port = dsn.split("@")[1].split("/")[0].split(":")
connection = http.client.HTTPConnection(host, int(port), timeout=60)
times = []
for name in sorted(os.listdir(folder)):
    body = open(os.path.join(folder, name), "rb").read()
    start = time.perf_counter()
    connection.request("POST", "/api/1/trails", body=body, headers={"Authorization": f"Bearer {key}"})
    answer = connection.getresponse()
    answer.read()
    times.append(time.perf_counter() - start)
    if answer.status not in (200, 201, 202):
        sys.exit(f"Error: {name} was answered {answer.status}")
open(out, "w").write("\n".join(f"{t * 1000:.3f}" for t in times) + "\n")
PY
    kill "$pid"
    wait "$pid" 2>/dev/null || true
}
percentile() { sort -g "$1" | awk -v p="$2" '{a[NR]=$1} END {i = int((NR - 1) * p + 0.5) + 1; print a[i]}'; }
EMPTY_P50=(); EMPTY_P99=(); FULL_P50=(); FULL_P99=()
for run in $(seq 1 "$RUNS"); do
    echo "serve run $run of $RUNS..." >&2
    rm -f "$DIR"/empty.sqlite*
    post_latencies "$DIR/empty.sqlite" "$DIR/empty.ms"
    rm -f "$DIR"/full.sqlite* && cp "$DIR/waiting.sqlite" "$DIR/full.sqlite"
    post_latencies "$DIR/full.sqlite" "$DIR/full.ms"
    EMPTY_P50+=("$(percentile "$DIR/empty.ms" 0.5)"); EMPTY_P99+=("$(percentile "$DIR/empty.ms" 0.99)")
    FULL_P50+=("$(percentile "$DIR/full.ms" 0.5)"); FULL_P99+=("$(percentile "$DIR/full.ms" 0.99)")
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f\n", a / b}'; }
echo
echo "| measure | value |"
echo "|---|---:|"
echo "| ingest of $SMALL waiting trails, s | $(printf '%.2f' "$SMALL_MEDIAN") |"
echo "| ingest of $LARGE waiting trails, s | $(printf '%.2f' "$LARGE_MEDIAN") |"
echo "| ratio ($LARGE / $SMALL trails is $(ratio "$LARGE" "$SMALL")x) | $(ratio "$LARGE_MEDIAN" "$SMALL_MEDIAN")x |"
echo "| a trail posted to an empty store, p50 / p99 ms | $(median "${EMPTY_P50[@]}") / $(median "${EMPTY_P99[@]}") |"
echo "| a trail posted while $WAITING wait, p50 / p99 ms | $(median "${FULL_P50[@]}") / $(median "${FULL_P99[@]}") |"
echo "| p99 ratio, $WAITING waiting against none | $(ratio "$(median "${FULL_P99[@]}")" "$(median "${EMPTY_P99[@]}")")x |"
echo
echo "$RUNS runs; $POSTS trails posted one after the other on one connection; medians of the runs' percentiles."
