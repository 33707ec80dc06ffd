#!/usr/bin/env bash
# Times two builds of `crashtrail ingest` against each other, alternating, over the corpus Tools/ingest-bench.sh made:
# for a change to the ingest path, the build before it against the build after it, in one run.
#
#   Tools/ingest-ab.sh OLD_CRASHTRAIL NEW_CRASHTRAIL [RUNS] [CORPUS_DIR]
#
# RUNS defaults to 5; CORPUS_DIR to /tmp/crashtrail-ingest-bench-10000 (Tools/ingest-bench.sh 10000 makes it). Each
# run ingests into a fresh store with --jobs 2; prints every run's wall seconds and the medians. OLD_MANIFEST and
# NEW_MANIFEST (the sample manifest by default) give each side its own manifest: the same build with two manifests
# measures what a manifest's choices cost (screen names make ingest read breadcrumbs).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 OLD_CRASHTRAIL NEW_CRASHTRAIL [RUNS] [CORPUS_DIR]" >&2; exit 2; }
OLD=$1
NEW=$2
RUNS=${3:-5}
DIR=${4:-/tmp/crashtrail-ingest-bench-10000}
M="$(cd "$(dirname "$0")/.." && pwd)/Samples/PirateBay/Sources/PirateBay/piratebay.yml"
OLD_MANIFEST=${OLD_MANIFEST:-$M}
NEW_MANIFEST=${NEW_MANIFEST:-$M}
[ -d "$DIR/reports" ] || { echo "error: no corpus at $DIR; make one with Tools/ingest-bench.sh 10000" >&2; exit 1; }
run() { # binary manifest -> wall seconds
    local work start end
    work=$(mktemp -d)
    start=$(date +%s.%N)
    "$1" ingest "$DIR/reports" --trails "$DIR/trails" --manifest "$2" --store "$work/store.sqlite" \
        --quarantine "$work/q" --jobs 2 --json --quiet >/dev/null
    end=$(date +%s.%N)
    rm -rf "$work"
    python3 -c "print(f'{$end - $start:.2f}')"
}
old=()
new=()
for i in $(seq "$RUNS"); do
    old+=("$(run "$OLD" "$OLD_MANIFEST")")
    new+=("$(run "$NEW" "$NEW_MANIFEST")")
    echo "run $i: old ${old[-1]} s, new ${new[-1]} s"
done
python3 - "${old[*]}" "${new[*]}" <<'EOF'
import statistics, sys
old = [float(x) for x in sys.argv[1].split()]
new = [float(x) for x in sys.argv[2].split()]
o, n = statistics.median(old), statistics.median(new)
print(f"medians: old {o:.2f} s, new {n:.2f} s, new/old {n / o:.2f}x")
EOF
