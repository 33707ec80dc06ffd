#!/usr/bin/env bash
# Builds crashtrail's libFuzzer entry points (Tools/Fuzz, a separate package) with the fuzzer and address
# sanitizer, and runs each for a bounded time over its committed seeds (Tools/Fuzz/Corpus/<target>/) and the
# same seeds written fresh by `fuzz-seeds` with the code being fuzzed (.build-fuzz/seeds/<target>/).
#
#   Tools/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     fuzz (default: 120 s each, every target)
#   Tools/fuzz.sh --replay TARGET FILE...               run one target over saved inputs (a finding)
#
# New inputs go to .build-fuzz/corpus/<target>/ (never into the committed seeds); crashes, hangs and
# out-of-memory inputs go to .build-fuzz/findings/<target>/. Prints executions per target and the findings,
# appends one line per run to .build-fuzz/fuzz-runs.tsv, and exits 1 when anything was found.
# Runs under `nice -n 10`: the machine is shared. See docs/RELIABILITY.md.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$root/.build-fuzz"
corpus_seeds="$root/Tools/Fuzz/Corpus"
targets_all=(fuzz-trail-json fuzz-trail-binary fuzz-trail-text fuzz-trail-keys fuzz-manifest fuzz-url fuzz-payload fuzz-payload-formats fuzz-journal fuzz-macho)
# Swift's own crash backtracer is slow and interactive; libFuzzer reports traps (SIGILL) itself.
export SWIFT_BACKTRACE=enable=no

# The libFuzzer dictionary (Tools/Fuzz/Dictionaries) a target's mutations draw tokens from.
dictionary() {
    case "$1" in
        fuzz-payload*) echo "$root/Tools/Fuzz/Dictionaries/payload.dict" ;;
        fuzz-trail-*) echo "$root/Tools/Fuzz/Dictionaries/trail.dict" ;;
        fuzz-macho) echo "$root/Tools/Fuzz/Dictionaries/macho.dict" ;;
        *) echo "$root/Tools/Fuzz/Dictionaries/manifest.dict" ;;
    esac
}

# The largest input a target's mutations make: Mach-O files put their slices and sections far into the file.
max_len() {
    case "$1" in
        fuzz-macho) echo 131072 ;;
        *) echo 16384 ;;
    esac
}

build() {
    echo "Building the fuzz targets (swift build, -sanitize=fuzzer,address) ..." >&2
    local log="$scratch/build.log"
    mkdir -p "$scratch"
    # A failed build must stop the run: otherwise the binaries of an earlier build would be fuzzed instead.
    if ! nice -n 10 swift build --package-path "$root/Tools/Fuzz" --scratch-path "$scratch" -c debug \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library > "$log" 2>&1; then
        grep -v "Cannot export local symbol" "$log" | grep -E "error" >&2 || true
        echo "error: the fuzz targets did not build (full log: $log); if a source file moved, delete $scratch and retry" >&2
        exit 1
    fi
    grep -v "Cannot export local symbol" "$log" | grep -E "warning: |Build complete" >&2 || true
    for target in "${targets_all[@]}"; do
        [[ -x "$scratch/debug/$target" ]] || { echo "error: $target was not built" >&2; exit 1; }
    done
}

if [[ "${1:-}" == "--replay" ]]; then
    [[ $# -ge 3 ]] || { echo "usage: Tools/fuzz.sh --replay TARGET FILE..." >&2; exit 64; }
    target="$2"; shift 2
    build
    exec "$scratch/debug/$target" -timeout=5 -rss_limit_mb=2048 "$@"
fi

seconds="${1:-120}"
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "usage: Tools/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]" >&2; exit 64; }
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${targets_all[@]}")

build
mkdir -p "$scratch/corpus" "$scratch/findings" "$scratch/logs"
# Fresh seeds from the code being fuzzed: the binary trail format may have changed since the committed seeds
# were written, and a seed that no longer decodes teaches the fuzzer nothing about the decoder.
rm -rf "$scratch/seeds"
"$scratch/debug/fuzz-seeds" "$scratch/seeds" >/dev/null
found_any=0
printf "%-22s %8s %12s %10s %9s  %s\n" target seconds executions "execs/s" findings "log" 
for target in "${targets[@]}"; do
    work="$scratch/corpus/$target"
    findings="$scratch/findings/$target"
    log="$scratch/logs/$target.log"
    mkdir -p "$work" "$findings" "$scratch/seeds/$target"
    before=$(find "$findings" -type f | wc -l)
    start=$(date +%s)
    # -timeout: an input running over 5 s is a hang; -rss_limit_mb: over 2 GiB is an out-of-memory finding.
    status=0
    nice -n 10 "$scratch/debug/$target" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len="$(max_len "$target")" \
        -dict="$(dictionary "$target")" -print_final_stats=1 -artifact_prefix="$findings/" "$work" "$corpus_seeds/$target" "$scratch/seeds/$target" \
        >"$log" 2>&1 || status=$?
    elapsed=$(( $(date +%s) - start ))
    runs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" "$log" | grep -oE "[0-9]+$" | tail -1 || true)
    [[ -n "$runs" ]] || runs=$(grep -oE "^Done [0-9]+ runs" "$log" | grep -oE "[0-9]+" | tail -1 || true)
    [[ -n "$runs" ]] || runs=0
    after=$(find "$findings" -type f | wc -l)
    new=$(( after - before ))
    if [[ $status -ne 0 || $new -gt 0 ]]; then found_any=1; fi
    rate=$(( elapsed > 0 ? runs / elapsed : runs ))
    printf "%-22s %8s %12s %10s %9s  %s\n" "$target" "$elapsed" "$runs" "$rate" "$new" "${log#$root/}"
    printf "%s\t%s\t%s\t%s\t%s\t%s\n" "$(date -u +%FT%TZ)" "$target" "$elapsed" "$runs" "$new" "$status" >>"$scratch/fuzz-runs.tsv"
    if [[ $new -gt 0 || $status -ne 0 ]]; then
        grep -E "ERROR: libFuzzer|ERROR: AddressSanitizer|Fatal error|fuzz invariant|SUMMARY" "$log" | head -5 | sed 's/^/    /'
        find "$findings" -type f -newer "$log" -o -type f -cnewer "$log" 2>/dev/null | head -5 | sed 's/^/    finding: /'
    fi
done
if [[ $found_any -ne 0 ]]; then
    echo "Findings under ${scratch#$root/}/findings/; replay one with: Tools/fuzz.sh --replay TARGET FILE" >&2
    exit 1
fi
echo "No findings."
