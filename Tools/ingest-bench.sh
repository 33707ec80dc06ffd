#!/usr/bin/env bash
# Measures `crashtrail ingest` against a plain-Python minimal equivalent and an orjson parse-only floor, in one
# run, over a generated mixed corpus (all five formats, .ips 50-150 KB, Sentry 10-40 KB, trails of 20-500 steps).
#
#   Tools/ingest-bench.sh [REPORTS] [JOBS]        defaults: 10000 reports, all cores
#
# Environment: BENCH_DIR (where the corpus and stores go; default /tmp/crashtrail-ingest-bench-REPORTS),
# SEED (corpus seed, default 42). Prints a Markdown table for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."

REPORTS="${1:-10000}"
JOBS="${2:-$(nproc)}"
SEED="${SEED:-42}"
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

rm -rf "$DIR/store.sqlite"* "$DIR/python.sqlite"* "$DIR/quarantine"
read -r CT_S CT_RSS CT_CPU < <(measure crashtrail "$BIN/crashtrail" ingest "$DIR/reports" --trails "$DIR/trails" --manifest "$MANIFEST" \
    --store "$DIR/store.sqlite" --quarantine "$DIR/quarantine" --jobs "$JOBS" --json --quiet)
CT_N=$(python3 -c "import json,sys; s=json.load(open('$DIR/crashtrail.out')); print(s['stored'])")
UNDECODABLE=$(python3 -c "import json; s=json.load(open('$DIR/crashtrail.out')); print(s['trails']['undecodable'] + s['rejectedByReason'].get('undecodable-trail', 0))")
if [ "$UNDECODABLE" != "0" ]; then
    echo "WARNING: $UNDECODABLE trails did not decode: the corpus in $DIR was made by another trail encoder; delete it and run again." >&2
fi
read -r RE_S RE_RSS RE_CPU < <(measure crashtrail-rerun "$BIN/crashtrail" ingest "$DIR/reports" --trails "$DIR/trails" --manifest "$MANIFEST" \
    --store "$DIR/store.sqlite" --quarantine "$DIR/quarantine" --jobs "$JOBS" --json --quiet)
read -r PY_S PY_RSS PY_CPU < <(measure python python3 Tools/ingest_baseline.py store "$DIR/reports" "$DIR/python.sqlite")
PY_N=$(awk '{print $2}' "$DIR/python.out")
read -r OJ_S OJ_RSS OJ_CPU < <(measure orjson python3 Tools/ingest_baseline.py parse "$DIR/reports")
OJ_N=$(awk '{print $2}' "$DIR/orjson.out")

python3 - "$REPORTS" "$JOBS" "$BYTES" "$CT_N" "$CT_S" "$CT_RSS" "$CT_CPU" "$RE_S" "$RE_RSS" "$RE_CPU" "$PY_N" "$PY_S" "$PY_RSS" "$PY_CPU" "$OJ_N" "$OJ_S" "$OJ_RSS" "$OJ_CPU" "$DIR" <<'PY'
import json, os, sys
(reports, jobs, size, ct_n, ct_s, ct_rss, ct_cpu, re_s, re_rss, re_cpu, py_n, py_s, py_rss, py_cpu,
 oj_n, oj_s, oj_rss, oj_cpu, folder) = sys.argv[1:]
size = int(size); mb = size / 1e6
rows = [
    ("crashtrail ingest (--jobs %s)" % jobs, int(ct_n), float(ct_s), int(ct_rss), float(ct_cpu)),
    ("crashtrail ingest, second run (all duplicates)", int(ct_n), float(re_s), int(re_rss), float(re_cpu)),
    ("plain Python: json + sqlite3", int(py_n), float(py_s), int(py_rss), float(py_cpu)),
    ("orjson parse-only floor", int(oj_n), float(oj_s), int(oj_rss), float(oj_cpu)),
]
ct_rate = int(ct_n) / float(ct_s)
load = os.getloadavg()[0]
print(f"Corpus: {reports} reports, {mb:.1f} MB ({open(folder + '/corpus.txt').read().strip()}); load average {load:.1f} on {os.cpu_count()} cores")
print()
print("| run | reports | wall s | reports/s | MB/s | CPU s | reports per CPU s | peak RSS (MB) | crashtrail vs this (wall) |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for name, n, s, rss, cpu in rows:
    rate = n / s if s > 0 else 0
    ratio = ct_rate / rate if rate > 0 else 0
    print(f"| {name} | {n} | {s:.2f} | {rate:,.0f} | {mb / s:,.1f} | {cpu:.2f} | {n / cpu if cpu else 0:,.0f} | {rss / 1024:.0f} | {ratio:.2f}x |")
PY
