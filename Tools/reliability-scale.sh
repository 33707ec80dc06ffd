#!/usr/bin/env bash
# The reliability tests at a larger scale (docs/RELIABILITY.md): 2,000-file corpora killed with SIGKILL at 50
# random moments and raced by 2 and 4 concurrent ingest jobs, a trail of 10,000,000 steps, and a 200 MB
# payload (generated in a temporary folder, never committed). Prints what each measured.
#
#   Tools/reliability-scale.sh [SCALE] [KILLS]     defaults: SCALE=10 (×200 files), KILLS=50
#   RELIABILITY_STEPS=1000000 Tools/reliability-scale.sh   a smaller step count for the long-trail test
#
# The long-trail test asserts that the default limits refuse the trail and that, with limits raised to fit, decoding
# raises the resident set by at most 64 MiB + 256 bytes a step.
#
# Needs about 8 GB of memory and several minutes on 2 cores. Uses the scratch folder .build-rel.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
scale="${1:-10}"
kills="${2:-50}"
scratch="${RELIABILITY_SCRATCH:-$root/.build-rel}"
[[ "$scale" =~ ^[0-9]+$ && "$kills" =~ ^[0-9]+$ ]] || { echo "usage: Tools/reliability-scale.sh [SCALE] [KILLS]" >&2; exit 64; }

cd "$root"
nice -n 10 swift build --scratch-path "$scratch" --build-tests 2>&1 | grep -E "error|Build complete" || true
export RELIABILITY_SCALE="$scale" RELIABILITY_KILLS="$kills"
echo "Reliability at scale: $((scale * 200)) files per corpus, $kills kills, ${RELIABILITY_STEPS:-10000000} trail steps" >&2
nice -n 10 swift test --scratch-path "$scratch" --skip-build \
    --filter 'CrashtrailReliabilityTests.(IngestCrashSafetyTests|ScaleTests)' 2>&1 \
    | grep -E "scale:|✔|✘|recorded an issue|Test run" 
