#!/usr/bin/env bash
# Symbolication figures for BENCHMARKS.md, in one run:
#   1. crashtrail-symbols-bench: addresses per second, cold and from the cache.
#   2. `crashtrail ingest` of REPORTS generated .ips crashes whose app frames are in the symbol fixtures' images,
#      into a store that has their dSYMs against the same files into one that has none (median of RUNS, ratio).
#   3. With BIG_DSYM=PATH (a dSYM of about 200 MB; `Tools/symbols-bench.sh --make-big DIR` makes one): `symbols add`
#      of it into a store of the 10,000-report mixed corpus repeated to 99,000 reports plus 1,000 that wait for it:
#      time and peak memory.
#
#   Tools/symbols-bench.sh [REPORTS]          default 10000
#   Tools/symbols-bench.sh --make-big DIR     writes DIR/Big.dSYM (needs clang, ld64.lld and dsymutil: see
#                                             Tools/make-symbol-fixtures.sh)
#
# Environment: BENCH_DIR (default /tmp/crashtrail-symbols-bench), RUNS (default 3), JOBS (default all cores),
# SEED (default 7), ONLY_BIG (set: only the third part).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

if [ "${1:-}" = "--make-big" ]; then
    out="${2:?usage: $0 --make-big DIR}"
    mkdir -p "$out"
    # Debug information of about 200 MB: an enum of 1.25 million long-named cases (strings and DIEs, no code), and two
    # functions whose frames the waiting crashes name.
    python3 - "$out/big.c" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("enum big_catalogue {\n")
    for i in range(1_250_000):
        f.write(f"  catalogue_entry_{i:07d}_with_a_long_descriptive_name_that_takes_space_in_the_debug_string_table"
                f"_of_the_dsym_of_a_large_application_with_many_generated_types_{i:07d} = {i},\n")
    f.write("};\nenum big_catalogue big_pick(int i) { return (enum big_catalogue)(i * 3 + 1); }\n")
    f.write("volatile int sink;\nint big_crash(int i) { sink = 0; int *p = (int *)(long)i; return *p + big_pick(i); }\n")
PY
    clang="${CLANG:-$(dirname "$(command -v swiftc)")/clang}"
    "$clang" -target arm64-apple-ios17.0 -g -O1 -c "$out/big.c" -o "$out/big.o"
    "${LD64:-/usr/lib/llvm-14/bin/ld64.lld}" -arch arm64 -platform_version ios 17.0 17.0 -undefined dynamic_lookup -dylib \
        -install_name @rpath/Big.framework/Big "$out/big.o" -o "$out/Big"
    "${DSYMUTIL:-/usr/lib/llvm-14/bin/dsymutil}" "$out/Big" -o "$out/Big.dSYM"
    rm -f "$out/big.c" "$out/big.o"
    du -sh "$out/Big.dSYM"
    exit 0
fi

REPORTS="${1:-10000}"
RUNS="${RUNS:-3}"
JOBS="${JOBS:-$(nproc)}"
SEED="${SEED:-7}"
DIR="${BENCH_DIR:-/tmp/crashtrail-symbols-bench}"
mkdir -p "$DIR"

echo "Building release binaries..." >&2
swift build -c release --scratch-path .build-ingest-rel --product crashtrail >&2
swift build -c release --scratch-path .build-ingest-rel --product crashtrail-symbols-bench >&2
swift build -c release --scratch-path .build-ingest-rel --product crashtrail-corpus >&2
BIN="$(swift build -c release --scratch-path .build-ingest-rel --show-bin-path)"
CT="${CRASHTRAIL:-$BIN/crashtrail}"
export CRASHTRAIL_SYMBOL_CACHE="$DIR/cache"

if [ -z "${ONLY_BIG:-}" ]; then
echo "## Symbolication rate"
"$BIN/crashtrail-symbols-bench" --rounds 5

# The crashes: each a thread of 8 app frames at addresses of the fixtures' reference (the crashing pc at a line row,
# then return addresses), under 4 frames of a system image without a debug file.
if [ ! -f "$DIR/reports/done" ]; then
    echo "Generating $REPORTS crashes in $DIR/reports..." >&2
    rm -rf "$DIR/reports" && mkdir -p "$DIR/reports"
    python3 - "$root/Tests/Fixtures/symbols/reference.json" "$DIR/reports" "$REPORTS" "$SEED" <<'PY'
import json, random, sys, os
reference, out, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(seed)
slices = [s for s in json.load(open(reference))["slices"] if s["kind"] == "dsym" and s["arch"] == "arm64"]
for n in range(count):
    s = rng.choice(slices)
    lines = [l["offset"] for l in s["lookups"] if "line" in l["sources"]]
    calls = [l["offset"] + 1 for l in s["lookups"] if "call" in l["sources"]]
    offsets = [rng.choice(lines)] + [rng.choice(calls) for _ in range(7)]
    name = os.path.basename(s["file"])
    frames = [{"imageIndex": 0, "imageOffset": o} for o in offsets] + [{"imageIndex": 1, "imageOffset": 4096 * k + 12} for k in range(4)]
    rid = f"5{n:07d}-0000-4000-8000-{n:012d}"
    header = {"app_name": "Kaboom", "timestamp": "2026-11-20 10:00:00.00 +0000", "app_version": "1.0", "build_version": "1",
              "bug_type": "309", "os_version": "iPhone OS 17.4 (21E219)", "incident_id": rid, "name": "Kaboom",
              "bundleID": "com.example.kaboom"}
    body = {"incident": rid, "captureTime": "2026-11-20 10:00:00.0000 +0000", "procName": "Kaboom", "pid": 41,
            "bundleInfo": {"CFBundleIdentifier": "com.example.kaboom", "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1"},
            "exception": {"type": "EXC_BAD_ACCESS", "signal": "SIGSEGV", "codes": "0x0000000000000001, 0x0000000000000000"},
            "faultingThread": 0, "threads": [{"triggered": True, "frames": frames}],
            "usedImages": [
                {"source": "P", "arch": "arm64", "base": 4353687552, "size": 1 << 20, "uuid": s["uuid"].lower(),
                 "path": f"/private/var/containers/Bundle/Application/Kaboom.app/Frameworks/{name}.framework/{name}", "name": name},
                {"source": "P", "arch": "arm64e", "base": 6442450944, "size": 1 << 24, "uuid": "0a1b2c3d-0000-4000-8000-000000000000",
                 "path": "/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore", "name": "UIKitCore"}]}
    with open(f"{out}/{rid}.ips", "w") as f:
        f.write(json.dumps(header) + "\n" + json.dumps(body))
open(f"{out}/done", "w").close()
PY
fi
rm -rf "$DIR/stores" && mkdir -p "$DIR/stores"
"$CT" symbols add Tests/Fixtures/symbols/AppC.dSYM Tests/Fixtures/symbols/AppC5.dSYM Tests/Fixtures/symbols/AppSwift.dSYM \
    Tests/Fixtures/symbols/AppFat.dSYM Tests/Fixtures/symbols/AppExe.dSYM --store "$DIR/stores/with.sqlite" --quiet
"$CT" symbols list --store "$DIR/stores/without.sqlite" >/dev/null 2>&1 || true
rm -f "$DIR/stores/without.sqlite"
cat "$DIR"/reports/*.ips >/dev/null

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
run() {  # run KIND ROUND: one ingest into a fresh copy of the KIND store; prints "seconds peak_kb"
    local store="$DIR/stores/run-$1-$2.sqlite"
    rm -f "$store"
    [ "$1" = with ] && cp "$DIR/stores/with.sqlite" "$store"
    /usr/bin/time -f "%e %M" -o "$DIR/time.txt" "$CT" ingest "$DIR/reports" --store "$store" --jobs "$JOBS" --quiet
    if [ "$1" = with ] && [ "$2" = 1 ]; then
        echo "  check: $("$CT" show "$(ls "$DIR/reports" | head -1 | sed 's/\.ips$//')" --store "$store" | grep -m1 '^  0 ')" >&2
    fi
    rm -f "$store"*
    cat "$DIR/time.txt"
}
: > "$DIR/without.txt"
: > "$DIR/with.txt"
for round in $(seq 1 "$RUNS"); do
    run without "$round" >> "$DIR/without.txt"
    run with "$round" >> "$DIR/with.txt"
done
without=$(cut -d' ' -f1 "$DIR/without.txt" | median)
with=$(cut -d' ' -f1 "$DIR/with.txt" | median)
echo
echo "## Ingest of $REPORTS crashes with app frames, --jobs $JOBS, median of $RUNS"
echo "| store | wall s | peak RSS MB |"
echo "|---|---:|---:|"
echo "| no debug files (frames by offset) | $without | $(( $(cut -d' ' -f2 "$DIR/without.txt" | median) / 1024 )) |"
echo "| the images' dSYMs (every app frame symbolicated) | $with | $(( $(cut -d' ' -f2 "$DIR/with.txt" | median) / 1024 )) |"
echo "ratio: $(python3 -c "print(f'{$with / $without:.2f}x')")"
fi

if [ -n "${BIG_DSYM:-}" ]; then
    echo >&2 "Building a store of 99,000 mixed reports and 1,000 waiting for $BIG_DSYM..."
    big="$DIR/big"
    rm -rf "$big" && mkdir -p "$big/waiting"
    uuid=$("$CT" symbols add "$BIG_DSYM" --store "$big/probe.sqlite" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["slices"][0]["uuid"])')
    rm -f "$big/probe.sqlite"*
    corpus="$DIR/corpus"
    if [ ! -f "$corpus/corpus.txt" ]; then
        rm -rf "$corpus" && mkdir -p "$corpus"
        "$BIN/crashtrail-corpus" corpus "$corpus" --count 9900 --seed 42 \
            --manifest Samples/PirateBay/Sources/PirateBay/piratebay.yml > "$corpus/corpus.txt"
    fi
    python3 - "$big/waiting" "$uuid" <<'PY'
import json, sys
out, uuid = sys.argv[1], sys.argv[2]
for n in range(1000):
    rid = f"6{n:07d}-0000-4000-8000-{n:012d}"
    header = {"app_name": "Big", "timestamp": "2026-11-21 10:00:00.00 +0000", "app_version": "2.0", "build_version": "9",
              "bug_type": "309", "os_version": "iPhone OS 17.4 (21E219)", "incident_id": rid, "name": "Big", "bundleID": "com.example.big"}
    body = {"incident": rid, "captureTime": "2026-11-21 10:00:00.0000 +0000", "procName": "Big", "pid": 7,
            "exception": {"type": "EXC_BAD_ACCESS", "signal": "SIGSEGV", "codes": "0x1, 0x0"}, "faultingThread": 0,
            "threads": [{"triggered": True, "frames": [{"imageIndex": 0, "imageOffset": 0x4000 + 4 * (n % 16)}]}],
            "usedImages": [{"source": "P", "arch": "arm64", "base": 4353687552, "size": 1 << 16, "uuid": uuid,
                            "path": "/private/var/containers/Bundle/Application/Big.app/Frameworks/Big.framework/Big", "name": "Big"}]}
    open(f"{out}/{rid}.ips", "w").write(json.dumps(header) + "\n" + json.dumps(body))
PY
    # The corpus ten times over (new IDs each time: a copy's files are renamed and their IDs rewritten).
    for copy in $(seq 0 9); do
        mkdir -p "$big/corpus-$copy"
        python3 - "$corpus/reports" "$big/corpus-$copy" "$copy" <<'PY'
import os, re, sys
src, out, copy = sys.argv[1], sys.argv[2], sys.argv[3]
pattern = re.compile(rb"([0-9a-fA-F]{8})-([0-9a-fA-F]{4})-([0-9a-fA-F]{4})-([0-9a-fA-F]{4})-([0-9a-fA-F]{12})")
for folder, _, names in os.walk(src):
    for name in names:
        data = open(os.path.join(folder, name), "rb").read()
        # Every UUID-shaped ID gets the copy's number in its last digit group, so each copy's reports are new.
        data = pattern.sub(lambda m: m.group(0)[:-1] + copy.encode(), data)
        open(os.path.join(out, f"{copy}-{name}"), "wb").write(data)
PY
    done
    "$CT" ingest "$big"/corpus-* "$big/waiting" --store "$big/store.sqlite" --jobs "$JOBS" --quiet || true
    echo "  stored: $(sqlite3 "$big/store.sqlite" 'select count(*) from report') reports" >&2
    /usr/bin/time -f "%e %M" -o "$DIR/big-time.txt" "$CT" symbols add "$BIG_DSYM" --store "$big/store.sqlite" > "$DIR/big-add.txt"
    read -r seconds peak < "$DIR/big-time.txt"
    echo
    echo "## symbols add of $(du -sm "$BIG_DSYM" | cut -f1) MB dSYM into a store of $(sqlite3 "$big/store.sqlite" 'select count(*) from report') reports, 1,000 waiting"
    tail -n 2 "$DIR/big-add.txt"
    echo "| wall s | peak RSS MB |"
    echo "|---:|---:|"
    echo "| $seconds | $((peak / 1024)) |"
fi
