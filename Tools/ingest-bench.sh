#!/usr/bin/env bash
# Measures `crashtrail ingest` against a plain-Python minimal equivalent and an orjson parse-only floor, in one
# run, over a generated mixed corpus (all five formats, .ips 50-150 KB, Sentry 10-40 KB, trails of 20-500 steps).
# A fifth row, crashtrail-ingest-floor (Tools/IngestFloor), times only the work ingest cannot skip whatever its
# parser: reading, hashing and compressing every payload for the store.
#
#   Tools/ingest-bench.sh [REPORTS] [JOBS]        defaults: 10000 reports, all cores
#
# Environment: BENCH_DIR (where the corpus and stores go; default /tmp/crashtrail-ingest-bench-REPORTS),
# SEED (corpus seed, default 42), RUNS (runs of each contestant, default 3; the table shows medians).
# Prints a Markdown table for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

REPORTS="${1:-10000}"
JOBS="${2:-$(nproc)}"
SEED="${SEED:-42}"
RUNS="${RUNS:-3}"
DIR="${BENCH_DIR:-/tmp/crashtrail-ingest-bench-$REPORTS}"
MANIFEST=Samples/PirateBay/Sources/PirateBay/piratebay.yml

if [ ! -x /usr/bin/time ]; then
    echo "Installing GNU time for peak RSS..." >&2
    (apt-get install -y time >/dev/null 2>&1 || sudo apt-get install -y time >/dev/null) || { echo "Error: /usr/bin/time is missing and could not be installed" >&2; exit 1; }
fi
python3 -c "import orjson" 2>/dev/null || pip install --quiet orjson

echo "Building release binaries..." >&2
swift build -c release --scratch-path .build-ingest-rel --product crashtrail-corpus >&2
swift build -c release --scratch-path .build-ingest-rel --product crashtrail >&2
swift build -c release --scratch-path .build-ingest-rel --product crashtrail-ingest-floor >&2
BIN="$(swift build -c release --scratch-path .build-ingest-rel --show-bin-path)"

if [ ! -f "$DIR/corpus.txt" ]; then
    echo "Generating $REPORTS reports in $DIR..." >&2
    rm -rf "$DIR" && mkdir -p "$DIR"
    "$BIN/crashtrail-corpus" corpus "$DIR" --count "$REPORTS" --seed "$SEED" --manifest "$MANIFEST" > "$DIR/corpus.txt"
fi
BYTES=$(du -sb "$DIR/reports" | cut -f1)
# Warm the page cache so every contestant reads from memory.
find "$DIR/reports" "$DIR/trails" -type f -print0 | xargs -0 cat > /dev/null

measure() {  # name, command...: prints "seconds rss_kb cpu_seconds"; the command's stdout is kept in $DIR/$name.out
    local name="$1"; shift
    /usr/bin/time -v -o "$DIR/$name.time" "$@" > "$DIR/$name.out"
    local wall rss user sys
    wall=$(grep "Elapsed (wall clock)" "$DIR/$name.time" | awk '{print $NF}' | awk -F: '{ if (NF == 3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
    rss=$(grep "Maximum resident set size" "$DIR/$name.time" | awk '{print $NF}')
    user=$(grep "User time" "$DIR/$name.time" | awk '{print $NF}')
    sys=$(grep "System time" "$DIR/$name.time" | awk '{print $NF}')
    echo "$wall $rss $(python3 -c "print($user + $sys)")"
}

# Each contestant runs RUNS times, interleaved so a burst of load hits all of them alike; the table shows medians.
: > "$DIR/runs.txt"
for run in $(seq 1 "$RUNS"); do
    echo "Run $run of $RUNS..." >&2
    rm -rf "$DIR/store.sqlite"* "$DIR/python.sqlite"* "$DIR/quarantine"
    read -r S RSS CPU < <(measure crashtrail "$BIN/crashtrail" ingest "$DIR/reports" --trails "$DIR/trails" --manifest "$MANIFEST" \
        --store "$DIR/store.sqlite" --quarantine "$DIR/quarantine" --jobs "$JOBS" --json --quiet)
    N=$(python3 -c "import json; print(json.load(open('$DIR/crashtrail.out'))['stored'])")
    UNDECODABLE=$(python3 -c "import json; s=json.load(open('$DIR/crashtrail.out')); print(s['trails']['undecodable'] + s['rejectedByReason'].get('undecodable-trail', 0))")
    if [ "$UNDECODABLE" != "0" ]; then
        echo "WARNING: $UNDECODABLE trails did not decode: the corpus in $DIR was made by another trail encoder; delete it and run again." >&2
    fi
    echo "crashtrail $N $S $RSS $CPU" >> "$DIR/runs.txt"
    read -r S RSS CPU < <(measure crashtrail-rerun "$BIN/crashtrail" ingest "$DIR/reports" --trails "$DIR/trails" --manifest "$MANIFEST" \
        --store "$DIR/store.sqlite" --quarantine "$DIR/quarantine" --jobs "$JOBS" --json --quiet)
    echo "rerun $N $S $RSS $CPU" >> "$DIR/runs.txt"
    read -r S RSS CPU < <(measure python python3 Tools/ingest_baseline.py store "$DIR/reports" "$DIR/python.sqlite")
    echo "python $(awk '{print $2}' "$DIR/python.out") $S $RSS $CPU" >> "$DIR/runs.txt"
    read -r S RSS CPU < <(measure orjson python3 Tools/ingest_baseline.py parse "$DIR/reports")
    echo "orjson $(awk '{print $2}' "$DIR/orjson.out") $S $RSS $CPU" >> "$DIR/runs.txt"
    read -r S RSS CPU < <(measure floor "$BIN/crashtrail-ingest-floor" "$DIR/reports" --jobs "$JOBS")
    echo "floor $N $S $RSS $CPU" >> "$DIR/runs.txt"
done
STORE_MB=$(du -sm "$DIR/store.sqlite"* | awk '{s += $1} END {print s}')
PYTHON_MB=$(du -sm "$DIR/python.sqlite"* | awk '{s += $1} END {print s}')

python3 - "$REPORTS" "$JOBS" "$BYTES" "$DIR" "$RUNS" "$STORE_MB" "$PYTHON_MB" <<'PY'
import os, statistics, sys
reports, jobs, size, folder, runs, store_mb, python_mb = sys.argv[1:]
size = int(size); mb = size / 1e6
measured = {}
for line in open(folder + "/runs.txt"):
    name, n, s, rss, cpu = line.split()
    measured.setdefault(name, []).append((int(n), float(s), int(rss), float(cpu)))
names = {
    "crashtrail": "crashtrail ingest (--jobs %s)" % jobs,
    "rerun": "crashtrail ingest, second run (all duplicates)",
    "python": "plain Python: json + sqlite3",
    "orjson": "orjson parse-only floor",
    "floor": "crashtrail's own floor: read + SHA-256 + compress every payload, no parsing (--jobs %s)" % jobs,
}
def median(name):
    rows = measured[name]
    return rows[0][0], statistics.median(r[1] for r in rows), max(r[2] for r in rows), statistics.median(r[3] for r in rows)
ct_n, ct_s, _, _ = median("crashtrail")
ct_rate = ct_n / ct_s
load = os.getloadavg()[0]
print(f"Corpus: {reports} reports, {mb:.1f} MB ({open(folder + '/corpus.txt').read().strip()}); "
      f"median of {runs} interleaved runs; load average {load:.1f} on {os.cpu_count()} cores; "
      f"stores: crashtrail {store_mb} MB, Python {python_mb} MB")
print()
print("| run | reports | wall s (median) | reports/s | MB/s | CPU s | reports per CPU s | peak RSS (MB) | crashtrail vs this (wall) |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for key, label in names.items():
    n, s, rss, cpu = median(key)
    rate = n / s if s > 0 else 0
    ratio = ct_rate / rate if rate > 0 else 0
    print(f"| {label} | {n} | {s:.2f} | {rate:,.0f} | {mb / s:,.1f} | {cpu:.2f} | {n / cpu if cpu else 0:,.0f} | {rss / 1024:.0f} | {ratio:.2f}x |")
print()
print("All runs (name reports wall_s peak_rss_kb cpu_s):")
for line in open(folder + "/runs.txt"):
    print("    " + line.rstrip())
PY
