#!/usr/bin/env bash
# Measures the stores under many ingest workers: REPORTS generated reports split into 1, 2 and 4 disjoint shares,
# one `crashtrail ingest` worker per share, all at once, into one PostgreSQL store and into one SQLite file; then
# the latency of list, show GROUP and paths on each full store. Run it beside a PostgreSQL server:
#
#   Tools/with-postgres.sh Tools/store-bench.sh [REPORTS]      default 100000
#
# Environment: BENCH_DIR (corpus, stores; default /tmp/crashtrail-ingest-bench-REPORTS, shared with ingest-bench.sh),
# SEED (corpus seed, default 42), WORKERS (default "1 2 4"). Prints Markdown tables for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

REPORTS="${1:-100000}"
SEED="${SEED:-42}"
WORKERS="${WORKERS:-1 2 4}"
DIR="${BENCH_DIR:-/tmp/crashtrail-ingest-bench-$REPORTS}"
MANIFEST=Samples/PirateBay/Sources/PirateBay/piratebay.yml
CORES=$(nproc)

[ -n "${CRASHTRAIL_TEST_POSTGRES:-}" ] || { echo "Error: no PostgreSQL server; run as Tools/with-postgres.sh $0 $*" >&2; exit 1; }
if [ ! -x /usr/bin/time ]; then
    (apt-get install -y time >/dev/null 2>&1 || sudo apt-get install -y time >/dev/null) || { echo "Error: /usr/bin/time is missing" >&2; exit 1; }
fi
CREATEDB=$(command -v createdb || ls /usr/lib/postgresql/*/bin/createdb | tail -n 1)
base="${CRASHTRAIL_TEST_POSTGRES%/*}"
host_port="${base#postgres://*@}"
user="${base#postgres://}"; user="${user%@*}"

echo "Building release binaries..." >&2
swift build -c release --scratch-path .build-ingest-rel --product crashtrail-corpus >&2
swift build -c release --scratch-path .build-ingest-rel --product crashtrail >&2
BIN="$(swift build -c release --scratch-path .build-ingest-rel --show-bin-path)"

if [ ! -f "$DIR/corpus.txt" ]; then
    echo "Generating $REPORTS reports in $DIR..." >&2
    rm -rf "$DIR" && mkdir -p "$DIR"
    "$BIN/crashtrail-corpus" corpus "$DIR" --count "$REPORTS" --seed "$SEED" --manifest "$MANIFEST" > "$DIR/corpus.txt"
fi
find "$DIR/reports" "$DIR/trails" -type f -print0 | xargs -0 cat > /dev/null

# Disjoint shares of the reports, as hard links, one folder per worker: machines that each take part of a day.
shares() {  # workers
    local count="$1" folder="$DIR/shares-$1"
    if [ ! -d "$folder" ]; then
        mkdir -p "$folder"
        python3 - "$DIR/reports" "$folder" "$count" <<'PY'
import os, sys
source, out, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
files = sorted(os.path.join(d, f) for d, _, names in os.walk(source) for f in names)
for share in range(count):
    os.makedirs(os.path.join(out, str(share)), exist_ok=True)
for index, path in enumerate(files):
    os.link(path, os.path.join(out, str(index % count), f"{index}-{os.path.basename(path)}"))
PY
    fi
    echo "$folder"
}

seconds() { grep "Elapsed (wall clock)" "$1" | awk '{print $NF}' | awk -F: '{ if (NF == 3) print $1*3600+$2*60+$3; else print $1*60+$2 }'; }
rss_mb() { grep "Maximum resident set size" "$1" | awk '{printf "%.0f", $NF/1024}'; }

sqlite_store=""
postgres_store=""
echo "| store | workers | reports stored | wall s | reports/s | peak RSS per worker (MB, max) |"
echo "|---|---|---|---|---|---|"
for workers in $WORKERS; do
    folder=$(shares "$workers")
    jobs=$(( CORES / workers )); [ "$jobs" -ge 1 ] || jobs=1
    for kind in sqlite postgres; do
        if [ "$kind" = sqlite ]; then
            store="$DIR/bench-$workers.sqlite"; rm -f "$store"*
        else
            name="bench_${workers}_$RANDOM$RANDOM"
            "$CREATEDB" -h "${host_port%:*}" -p "${host_port#*:}" -U "$user" "$name"
            store="$base/$name"
        fi
        # The schema is made before the clock starts, as it is once per store.
        "$BIN/crashtrail" list --store "$store" >/dev/null 2>&1 || true
        start=$(date +%s.%N)
        pids=()
        for i in $(seq 0 $((workers - 1))); do
            /usr/bin/time -v -o "$DIR/worker-$kind-$workers-$i.time" "$BIN/crashtrail" ingest "$folder/$i" --trails "$DIR/trails" \
                --manifest "$MANIFEST" --store "$store" --quarantine "$DIR/q-$kind-$workers-$i" --jobs "$jobs" --json --quiet \
                > "$DIR/worker-$kind-$workers-$i.out" &
            pids+=($!)
        done
        for pid in "${pids[@]}"; do wait "$pid"; done
        wall=$(python3 -c "print(round($(date +%s.%N) - $start, 2))")
        stored=$(cat "$DIR"/worker-$kind-$workers-*.out | python3 -c "import sys, json; print(sum(json.loads(l)['stored'] for l in sys.stdin if l.strip()))")
        rss=$(for i in $(seq 0 $((workers - 1))); do rss_mb "$DIR/worker-$kind-$workers-$i.time"; echo; done | sort -n | tail -n 1)
        rate=$(python3 -c "print(round($stored / $wall))")
        echo "| $kind | $workers | $stored | $wall | $rate | $rss |"
        echo "$kind $workers $store" >> "$DIR/stores.txt"
        # The questions below are asked of this run's stores with the fewest workers.
        if [ "$kind" = sqlite ] && [ -z "$sqlite_store" ]; then sqlite_store=$store; fi
        if [ "$kind" = postgres ] && [ -z "$postgres_store" ]; then postgres_store=$store; fi
    done
done

# Query latency on this run's full stores with the fewest workers: median of 5 runs of the whole command, start-up
# included. A command that fails stops the benchmark rather than being timed.
echo
echo "| command | SQLite median ms | PostgreSQL median ms |"
echo "|---|---|---|"
group=$("$BIN/crashtrail" list --format json --store "$sqlite_store" | python3 -c "import sys, json; print(json.load(sys.stdin)[0]['id'])")
median_ms() {  # command...
    local times=() run s e
    for run in 1 2 3 4 5; do
        s=$(date +%s%N)
        "$@" > /dev/null || { echo "error: $* failed (exit $?); no time is given for it" >&2; return 1; }
        e=$(date +%s%N)
        times+=($(( (e - s) / 1000000 )))
    done
    printf '%s\n' "${times[@]}" | sort -n | sed -n 3p
}
for command in "list" "list --reports --limit 50" "show $group" "paths"; do
    # shellcheck disable=SC2086
    a=$(median_ms "$BIN/crashtrail" $command --store "$sqlite_store")
    # shellcheck disable=SC2086
    b=$(median_ms "$BIN/crashtrail" $command --store "$postgres_store")
    echo "| \`crashtrail $command\` | $a | $b |"
done
