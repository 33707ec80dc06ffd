#!/usr/bin/env bash
# Times ingest into a store that already holds reports against ingest into an empty one: the same 10,000 reports
# (another corpus than the full store's, `--seed 7`), with --trails, the sample manifest and --jobs 2.
#
#   Tools/into-full-bench.sh CRASHTRAIL FULL_STORE [RUNS] [CORPUS_DIR]
#
# FULL_STORE is an SQLite store to ingest into (for BENCHMARKS.md, the 100,000-report store of Store queries); it is
# never written: each run ingests into a fresh copy of it, made and read once just before, so both ingests start with
# their store in the page cache. RUNS (default 3) pairs, each an empty-store ingest then a full-store one; prints
# every pair's wall seconds and ratio, and the median ratio. CORPUS_DIR (default /tmp/crashtrail-ingest-bench-seed7)
# is made with crashtrail-corpus beside CRASHTRAIL when it holds no corpus.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 CRASHTRAIL FULL_STORE [RUNS] [CORPUS_DIR]" >&2; exit 2; }
BIN=$1
FULL=$2
RUNS=${3:-3}
DIR=${4:-/tmp/crashtrail-ingest-bench-seed7}
M="$(cd "$(dirname "$0")/.." && pwd)/Samples/PirateBay/Sources/PirateBay/piratebay.yml"
[ -f "$FULL" ] || { echo "error: no store at $FULL; make one with Tools/ingest-bench.sh 100000" >&2; exit 1; }
if [ ! -d "$DIR/reports" ]; then
    CORPUS="$(dirname "$BIN")/crashtrail-corpus"
    [ -x "$CORPUS" ] || { echo "error: no corpus at $DIR and no $CORPUS to make one" >&2; exit 1; }
    echo "Generating 10,000 reports (--seed 7) in $DIR..." >&2
    mkdir -p "$DIR"
    "$CORPUS" corpus "$DIR" --count 10000 --seed 7 --manifest "$M" > "$DIR/corpus.txt"
fi
find "$DIR" -type f -print0 | xargs -0 cat > /dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ingest() { # store -> wall seconds
    local start end
    start=$(date +%s.%N)
    "$BIN" ingest "$DIR/reports" --trails "$DIR/trails" --manifest "$M" --store "$1" --quarantine "$work/quarantine" \
        --jobs 2 --json --quiet > /dev/null
    end=$(date +%s.%N)
    python3 -c "print(f'{$end - $start:.2f}')"
}
ratios=()
for run in $(seq "$RUNS"); do
    rm -rf "${work:?}"/*
    cp "$FULL" "$work/full.sqlite"
    cat "$work/full.sqlite" > /dev/null
    empty=$(ingest "$work/empty.sqlite")
    full=$(ingest "$work/full.sqlite")
    ratios+=("$(python3 -c "print(f'{$full / $empty:.2f}')")")
    echo "run $run: empty store $empty s, full store $full s, ${ratios[-1]}x"
done
printf '%s\n' "${ratios[@]}" | sort -n | python3 -c "
import sys
values = [float(line) for line in sys.stdin]
print(f'median ratio {values[len(values) // 2]:.2f}x (from {values[0]:.2f}x to {values[-1]:.2f}x)')"
