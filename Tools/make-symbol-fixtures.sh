#!/usr/bin/env bash
# Builds small real Mach-O dylibs and their dSYMs from Tools/SymbolFixtures, for the symbolication tests.
#   Tools/make-symbol-fixtures.sh OUTDIR
#   Tools/symbolic-reference.py OUTDIR      then writes OUTDIR/reference.json (the expected frames)
#
# Into OUTDIR (nothing is written into the repository):
#   AppC, AppC.dSYM            arm64 dylib from crash.c, inlines.c and app.cpp, DWARF 4 (llvm-14 dsymutil)
#   AppC5, AppC5.dSYM          the same sources, DWARF 5 (llvm-19 dsymutil: llvm-14's breaks DWARF 5)
#   AppSwift, AppSwift.dSYM    arm64 dylib from Fixture.swift (-parse-stdlib: there is no Swift stdlib for iOS here)
#   AppFat, AppFat.dSYM        universal arm64 + x86_64 (iOS simulator) dylib of the C and C++ sources, DWARF 4
#   AppExe, AppExe.dSYM        arm64 executable of the same objects as AppC: __TEXT at 0x100000000, where a dylib's is 0
#   stripped/AppC              AppC with every symbol but _kaboom_exception_what stripped: the shipped binary
#   dsyms.zip                  AppC.dSYM and AppSwift.dSYM, folders kept, as an Xcode archive's dSYMs are zipped
#   uuids.txt                  one line per slice: UUID, arch, file
#   obj/                       the object files the debug maps point at (dsymutil reads them)
#
# Deterministic: fixed flags, debug paths rewritten to /crashtrail/Tools/SymbolFixtures, the debug map's object paths
# made relative (-oso_prefix) with zero timestamps (ZERO_AR_DATE), and lld's UUIDs are hashes of the output, so the
# same toolchain gives the same UUIDs whatever OUTDIR is. A different compiler version gives different code and UUIDs.
#
# Tools, overridable by environment variable: CLANG and SWIFTC (the Swift toolchain's), LD64 (Debian's llvm-14
# ld64.lld: the toolchain's refuses Apple platforms), DSYMUTIL (llvm-14), DSYMUTIL5 (llvm-19), LIPO, STRIP, DWARFDUMP.
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
src="$root/Tools/SymbolFixtures"
out="$(realpath -m "$1")"
case "$out/" in
"$root"/*)
    echo "error: OUTDIR $out is inside the repository; build the fixtures elsewhere (e.g. /tmp/symfix)" >&2
    exit 2
    ;;
esac

first_tool() {  # first_tool VAR candidate... : the first candidate that runs, else a message naming the tool
    local var="$1" found=""
    shift
    if [ -n "${!var:-}" ]; then
        found="$(command -v "${!var}" || true)"
    else
        for candidate in "$@"; do
            found="$(command -v "$candidate" || true)"
            [ -n "$found" ] && break
        done
    fi
    if [ -z "$found" ]; then
        echo "error: missing tool for $var: none of ${!var:-$*} is installed (set $var to its path)" >&2
        exit 1
    fi
    printf -v "$var" '%s' "$found"
}

first_tool SWIFTC swiftc
first_tool CLANG "$(dirname "$SWIFTC")/clang" clang
first_tool LD64 /usr/lib/llvm-14/bin/ld64.lld
first_tool DSYMUTIL /usr/lib/llvm-14/bin/dsymutil dsymutil
first_tool DSYMUTIL5 /usr/lib/llvm-19/bin/dsymutil
first_tool LIPO /usr/lib/llvm-19/bin/llvm-lipo llvm-lipo-14 llvm-lipo
first_tool STRIP /usr/lib/llvm-19/bin/llvm-strip llvm-strip
first_tool DWARFDUMP /usr/lib/llvm-19/bin/llvm-dwarfdump llvm-dwarfdump
first_tool ZIP zip

# dsymutil calls `lipo` to join the per-arch dSYMs of a universal binary.
tools="$(mktemp -d)"
trap 'rm -rf "$tools"' EXIT
ln -s "$LIPO" "$tools/lipo"
export PATH="$tools:$PATH"
export ZERO_AR_DATE=1  # lld writes 0 rather than the objects' mtimes into the debug map

debugdir=/crashtrail/Tools/SymbolFixtures
mkdir -p "$out"
rm -rf "$out/obj" "$out"/App*.dSYM "$out/stripped" "$out/dsyms.zip" "$out/uuids.txt"
mkdir -p "$out/obj" "$out/stripped"

cflags=(-g -O1 -fdebug-compilation-dir="$debugdir" -fdebug-prefix-map="$src=$debugdir" -fno-stack-protector
    -fvisibility=hidden)
cxxflags=(-std=c++17 -fno-exceptions -fno-rtti)

compile_c() {  # compile_c TARGET DWARF OBJDIR
    local target="$1" dwarf="$2" dir="$out/obj/$3"
    mkdir -p "$dir"
    (
        cd "$src"
        "$CLANG" -target "$target" "$dwarf" "${cflags[@]}" -c crash.c -o "$dir/crash.o"
        "$CLANG" -target "$target" "$dwarf" "${cflags[@]}" -c inlines.c -o "$dir/inlines.o"
        "$CLANG" -x c++ -target "$target" "$dwarf" "${cflags[@]}" "${cxxflags[@]}" -c app.cpp -o "$dir/app.o"
    )
}

link_dylib() {  # link_dylib ARCH PLATFORM NAME OUTPUT OBJDIR [KIND...]: KIND defaults to a dylib named NAME
    local arch="$1" platform="$2" name="$3" output="$4" dir="$out/obj/$5"
    shift 5
    local kind=(-dylib -install_name "@rpath/$name.framework/$name")
    [ $# -gt 0 ] && kind=("$@")
    # lld 14 cannot read DWARF 5's string offsets, so it warns and writes an empty N_SO source-file stab; the N_OSO
    # object-file stabs, all dsymutil uses, are right. That one warning is dropped; any other is shown.
    "$LD64" "${kind[@]}" -arch "$arch" -platform_version "$platform" 17.0 17.0 -undefined dynamic_lookup \
        -oso_prefix "$out/obj/" "$dir"/*.o -o "$output" 2>&1 |
        { grep -v 'invalid reference to or invalid content in .debug_str_offsets' >&2 || true; }
}

dsym() {  # dsym DSYMUTIL BINARY: BINARY.dSYM next to it; the debug map's object paths are relative to obj/
    local tool="$1" binary="$2" log
    rm -rf "$binary.dSYM"
    if ! log="$("$tool" --oso-prepend-path="$out/obj" "$binary" -o "$binary.dSYM" 2>&1)" || [ -n "$log" ]; then
        echo "$log" >&2
        echo "error: $tool $binary failed or warned (above)" >&2
        exit 1
    fi
}

started=$(date +%s.%N)

# (a) AppC: DWARF 4.
compile_c arm64-apple-ios17.0 -gdwarf-4 AppC
link_dylib arm64 ios AppC "$out/AppC" AppC
dsym "$DSYMUTIL" "$out/AppC"

# (b) AppC5: DWARF 5.
compile_c arm64-apple-ios17.0 -gdwarf-5 AppC5
link_dylib arm64 ios AppC5 "$out/AppC5" AppC5
dsym "$DSYMUTIL5" "$out/AppC5"

# (c) AppSwift.
mkdir -p "$out/obj/AppSwift"
(
    cd "$src"
    "$SWIFTC" -target arm64-apple-ios17.0 -parse-stdlib -parse-as-library -Xfrontend -disable-all-autolinking -g -O \
        -module-name AppSwift -file-compilation-dir "$debugdir" -debug-prefix-map "$src=$debugdir" \
        -debug-prefix-map "$out/obj=/crashtrail/obj" -module-cache-path "$out/obj/module-cache" \
        -c Fixture.swift -o "$out/obj/AppSwift/Fixture.o"
)
rm -rf "$out/obj/module-cache"
link_dylib arm64 ios AppSwift "$out/AppSwift" AppSwift
dsym "$DSYMUTIL" "$out/AppSwift"

# (d) AppFat: arm64 (device) + x86_64 (simulator).
compile_c arm64-apple-ios17.0 -gdwarf-4 AppFat-arm64
compile_c x86_64-apple-ios17.0-simulator -gdwarf-4 AppFat-x86_64
link_dylib arm64 ios AppFat "$out/obj/AppFat-arm64.dylib" AppFat-arm64
link_dylib x86_64 ios-simulator AppFat "$out/obj/AppFat-x86_64.dylib" AppFat-x86_64
"$LIPO" -create "$out/obj/AppFat-arm64.dylib" "$out/obj/AppFat-x86_64.dylib" -output "$out/AppFat"
dsym "$DSYMUTIL" "$out/AppFat"

# (a') AppExe: AppC's objects as an executable, so the image's __TEXT vmaddr is not 0.
link_dylib arm64 ios AppExe "$out/AppExe" AppC -execute -e _kaboom_run_all
dsym "$DSYMUTIL" "$out/AppExe"

# (e) The shipped binary: no debug map and no local symbols (the sources are built -fvisibility=hidden, so the hidden
# functions are local in the dylib), only the exported _kaboom_exception_what is left: `strip -x`, Xcode's
# STRIP_STYLE=non-global. (llvm-strip's --keep-symbol is not supported for Mach-O, and --strip-all drops it too.)
"$STRIP" --discard-all "$out/AppC" -o "$out/stripped/AppC"

# (f) dsyms.zip: the bundles with their folders, entries sorted, fixed timestamps, no extra attributes.
find "$out/AppC.dSYM" "$out/AppSwift.dSYM" -exec touch -h -d '2024-01-01 00:00:00 UTC' {} +
(cd "$out" && find AppC.dSYM AppSwift.dSYM | LC_ALL=C sort | TZ=UTC "$ZIP" -q -X "$out/dsyms.zip" -@)

elapsed=$(echo "$(date +%s.%N) - $started" | bc)

# UUID and arch of every slice, binaries and dSYMs (a binary and its dSYM must agree).
for file in AppC AppC5 AppSwift AppFat AppExe stripped/AppC; do
    for f in "$out/$file" "$out/$file.dSYM/Contents/Resources/DWARF/$(basename "$file")"; do
        [ -e "$f" ] || continue
        "$DWARFDUMP" --uuid "$f" | sed -E "s|^UUID: ([0-9A-F-]+) \(([a-z0-9_]+)\) .*|\1 \2 ${f#"$out"/}|"
    done
done | tee "$out/uuids.txt"
echo "built into $out in ${elapsed}s"
