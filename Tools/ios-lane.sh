#!/usr/bin/env bash
# The iOS lane: builds crashtrail's app side and the samples an app team copies for arm64-apple-ios16.0 (the
# deployment target Package.swift declares) against Apple's iPhoneOS SDK, links a sample app, and holds the stand-in
# modules and the reporter stand-ins against the real APIs. docs/ADOPTING.md ("The iOS lane") says how to run it.
#
#   Tools/ios-lane.sh SDK [OUT]
#
#   SDK  on Linux, the folder ../shared/ios/make-sdk.sh wrote (iPhoneOS16.5.sdk, resource/, bin/, env);
#        on a Mac, the SDK itself: "$(xcrun --sdk iphoneos --show-sdk-path)"
#   OUT  where the lane builds and writes its reports (default .build-ios; one scratch folder per package)
#
# Environment (each optional; a step whose source is absent is reported as skipped, never as passed):
#   CRASHTRAIL_KSCRASH        a checkout of kstenerud/KSCrash: its KSCrashRecording is built for iOS and the
#                             KSCrash snippet of docs/ADOPTING.md is compiled against it (and the stand-in held
#                             against its declarations, as for each reporter below)
#   CRASHTRAIL_SENTRY_COCOA   a checkout of getsentry/sentry-cocoa: the Sentry snippet is compiled against its sources
#   CRASHTRAIL_FIREBASE       a checkout of firebase/firebase-ios-sdk: the Crashlytics snippet is type-checked against
#                             the public Objective-C headers of FirebaseCrashlytics
#   CRASHTRAIL_IOS_SDK_SNAPSHOT  Linux: the theos/sdks snapshot make-sdk.sh read (a gap in its Foundation stub is
#                             filled from it; see make_gaps)
#   CRASHTRAIL_LANE_STEPS     the steps to run, by name (default: all): gaps app samples app-link standins reporters
#
# Every Swift file is compiled in the Swift 6 language mode with deprecation warnings as errors; a warning that an API
# is unavailable or deprecated fails the step that printed it. The lane exits 1 when a step fails, 2 on bad usage.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
case $1 in -h | --help) usage ;; esac
[ -d "$1" ] || { echo "ios-lane: SDK folder $1 does not exist" >&2; exit 2; }
given=$(cd "$1" && pwd)
out=${2:-$root/.build-ios}
mkdir -p "$out"
out=$(cd "$out" && pwd)
steps=${CRASHTRAIL_LANE_STEPS:-gaps app samples app-link standins reporters}
failed=()
passed=()
skipped=()
step() { [[ " $steps " == *" $1 "* ]]; }
say() { printf '\n== %s\n' "$*"; }

# MARK: The SDK and the flags for it

if [ -f "$given/env" ]; then
    # Linux: make-sdk.sh's folder. Its env names the SDK, the resource folder and the Debian linker.
    platform=linux
    # shellcheck disable=SC1091
    source "$given/env"
    sdk=$IOS_SDK
    resource=$(dirname "$sdk")/resource
    linker=$(dirname "$sdk")/bin/ld64.lld
elif [ -f "$given/SDKSettings.json" ] && [ -d "$given/System/Library/Frameworks/UIKit.framework" ]; then
    platform=mac
    sdk=$given
else
    echo "ios-lane: $given is neither a folder made by make-sdk.sh (no env file) nor an iPhoneOS SDK" >&2
    exit 2
fi
sdk_version=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["Version"])' "$sdk/SDKSettings.json")
echo "ios-lane: iPhoneOS $sdk_version SDK at $sdk ($platform), building into $out"

# The checkout, as a package named `crashtrail`: a sample names it by `path: "../.."`, and SwiftPM names a path
# dependency after its folder.
link="$out/crashtrail"
ln -sfn "$root" "$link"

# What Swift needs besides the SDK, on Linux: make-sdk.sh's resource folder and Debian's ld64.lld, and the gaps below.
gaps="$out/gaps"
swift_flags=(--triple arm64-apple-ios16.0 --sdk "$sdk" -Xswiftc -Werror -Xswiftc DeprecatedDeclaration)
if [ $platform = linux ]; then
    swift_flags+=(-Xswiftc -resource-dir -Xswiftc "$gaps/resource" -Xswiftc -Xfrontend -Xswiftc -disable-legacy-type-info)
    swift_flags+=(-Xswiftc -I -Xswiftc "$gaps/modules")
    # pkg-config would hand the link this machine's own zlib (-L/usr/lib/x86_64-linux-gnu); the lane's zlib.pc names
    # the SDK's, as the module map's `link "z"` does.
    export PKG_CONFIG_PATH="$gaps/pkgconfig"
fi

# MARK: gaps: what a Linux toolchain with the 16.5 SDK lacks beyond make-sdk.sh, filled in OUT/gaps (Linux only)
#
# Each fill gives the compiler or linker what Xcode's toolchain and a current SDK have; none changes a declaration the
# app side is compiled against, and none is used on a Mac.
#  - Swift.swiftmodule: the compiler's hook for typed throws, `_willThrowTyped`, which Swift 6's standard library
#    declares @_alwaysEmitIntoClient (a no-op before iOS 18). Without it, every `throw` in a `throws(E)` function
#    crashes the 6.3 compiler (SILGen) against the 5.8 library.
#  - Foundation.swiftmodule: `Bundle: Sendable`, as NSBundle is declared in current SDKs; SwiftPM's generated
#    `Bundle.module` accessor of a target with resources (PirateBay) needs it in the Swift 6 language mode.
#  - resource/iphoneos/libswiftCore.tbd: `swift_coroFrameAlloc` (Swift 6.2's runtime), which the compiler links
#    weakly for a coroutine's frame, falling back to malloc on an older runtime, and which the 16.5 stubs predate.
#  - Frameworks/Foundation.framework/Foundation.tbd: the Swift overlay's arm64 symbols (see below).
#  - pkgconfig/zlib.pc: the SDK's zlib, where this machine's pkg-config would name its own.
#  - liblane_rt.a: `__isPlatformVersionAtLeast`, what `#available` compiles to, from Xcode's libclang_rt.ios.a
#    (Tools/iOSLane/platform-version.c).
make_gaps() {
    rm -rf "$gaps" && mkdir -p "$gaps/modules" "$gaps/resource/iphoneos"
    for entry in "$resource"/*; do ln -s "$entry" "$gaps/resource/$(basename "$entry")"; done
    local swift_interface="$sdk/usr/lib/swift/Swift.swiftmodule/arm64-apple-ios.swiftinterface"
    mkdir -p "$gaps/modules/Swift.swiftmodule"
    if grep -q "func _willThrowTyped" "$swift_interface"; then
        rmdir "$gaps/modules/Swift.swiftmodule"
    else
        cp "$swift_interface" "$gaps/modules/Swift.swiftmodule/"
        printf '\n@_alwaysEmitIntoClient public func _willThrowTyped<E>(_ error: E) where E : Swift.Error {}\n' \
            >>"$gaps/modules/Swift.swiftmodule/arm64-apple-ios.swiftinterface"
    fi
    local foundation="$sdk/System/Library/Frameworks/Foundation.framework/Modules/Foundation.swiftmodule"
    local headers="$sdk/System/Library/Frameworks/Foundation.framework/Headers/NSBundle.h"
    if ! grep -q "NS_SWIFT_SENDABLE *@interface NSBundle\|Bundle : @unchecked Swift.Sendable" "$headers" "$foundation/arm64-apple-ios.swiftinterface"; then
        mkdir -p "$gaps/modules/Foundation.swiftmodule"
        cp "$foundation/arm64-apple-ios.swiftinterface" "$gaps/modules/Foundation.swiftmodule/"
        printf '\nextension Foundation.Bundle : @unchecked Swift.Sendable {}\n' \
            >>"$gaps/modules/Foundation.swiftmodule/arm64-apple-ios.swiftinterface"
    fi
    local core="$sdk/usr/lib/swift/libswiftCore.tbd"
    if ! grep -q "_swift_coroFrameAlloc" "$core"; then
        python3 - "$core" "$gaps/resource/iphoneos/libswiftCore.tbd" <<'PY'
import sys
text = open(sys.argv[1]).read().rstrip()
assert text.endswith("..."), "libswiftCore.tbd does not end as a TBD document"
block = "  - targets:         [ arm64-ios, arm64e-ios ]\n    symbols:         [ '_swift_coroFrameAlloc' ]\n"
open(sys.argv[2], "w").write(text[:-3].rstrip() + "\n" + block + "...\n")
PY
    fi
    # Foundation's Swift overlay: from iOS 16 its arm64 symbols are Foundation.framework's own. The snapshot lacks
    # 16.x's Foundation.tbd, and make-sdk.sh's stand-in for it (15.6's, with the overlay symbols 16.x lists for armv7)
    # lacks every overlay symbol newer than armv7's last iOS, 10: `FileHandle.read(upToCount:)` among them. 15.6's own
    # overlay stub lists them for arm64; the lane adds those to a copy of the stub, found first by the link.
    local stub="$sdk/System/Library/Frameworks/Foundation.framework/Foundation.tbd"
    local probe='_$sSo12NSFileHandleC10FoundationE4read9upToCountAC4DataVSgSi_tKF'
    if ! grep -qF "$probe" "$stub"; then
        if [ -z "${CRASHTRAIL_IOS_SDK_SNAPSHOT:-}" ]; then
            echo "  gaps: $stub lacks the Swift overlay's arm64 symbols ($probe); set CRASHTRAIL_IOS_SDK_SNAPSHOT to the"
            echo "  theos/sdks snapshot make-sdk.sh read, and the lane adds iPhoneOS15.6.sdk's (app-link needs them)"
        else
            local snapshot=$CRASHTRAIL_IOS_SDK_SNAPSHOT
            [ -d "$snapshot/repo" ] && snapshot=$snapshot/repo
            mkdir -p "$gaps/Frameworks/Foundation.framework"
            git -C "$snapshot" show HEAD:iPhoneOS15.6.sdk/usr/lib/swift/libswiftFoundation.tbd >"$gaps/overlay-15.6.tbd"
            python3 - "$stub" "$gaps/overlay-15.6.tbd" "$gaps/Frameworks/Foundation.framework/Foundation.tbd" <<'PY'
import re, sys
stub, overlay, out = sys.argv[1:]
have = set(re.findall(r"'([^']+)'", open(stub).read()))
blocks = re.split(r"\n  - targets:\s+", open(overlay).read().split("\nexports:", 1)[1].split("\n...", 1)[0])
symbols = []
for block in blocks:
    if block.startswith("[") and "arm64-ios" in block.split("]", 1)[0]:
        symbols += [s for s in re.findall(r"'([^']+)'", block) if not s.startswith("$ld$") and s not in have]
text = open(stub).read().rstrip()
assert text.endswith("..."), "Foundation.tbd does not end as a TBD document"
added = "  - targets:         [ arm64-ios, arm64e-ios ]\n    symbols:         [ " + ", ".join("'%s'" % s for s in symbols) + " ]\n"
open(out, "w").write(text[:-3].rstrip() + "\n" + added + "...\n")
print(f"  gaps: Foundation.tbd with {len(symbols)} overlay symbols of iPhoneOS15.6.sdk for arm64")
PY
        fi
    fi
    mkdir -p "$gaps/pkgconfig"
    printf 'Name: zlib\nDescription: the SDK'"'"'s zlib (usr/lib/libz.tbd)\nVersion: 1.2.11\nLibs: -lz\nCflags:\n' >"$gaps/pkgconfig/zlib.pc"
    clang -target arm64-apple-ios16.0 -isysroot "$sdk" -O2 -c "$here/iOSLane/platform-version.c" -o "$gaps/platform-version.o"
    libtool -static -o "$gaps/liblane_rt.a" "$gaps/platform-version.o"
}

if [ $platform = linux ]; then
    if step gaps || [ ! -d "$gaps/resource" ]; then
        say "gaps: what the Linux toolchain lacks for the $sdk_version SDK"
        make_gaps
        ls "$gaps/modules" "$gaps/resource/iphoneos" | sed 's/^/  /'
        passed+=(gaps)
    fi
fi

# A build whose log shows no error and no warning that an API is unavailable or deprecated.
#   build NAME LOG swift build arguments...
build() {
    local name=$1 log=$2
    shift 2
    echo "  swift build $*" >"$log"
    if ! swift build "${swift_flags[@]}" "$@" >>"$log" 2>&1; then
        grep -E "error:" "$log" | grep -v "^ " | sort -u | head -20 | sed 's/^/  /'
        echo "  $name: FAILED (the whole log: $log)"
        failed+=("$name")
        return 1
    fi
    local warnings
    warnings=$(grep -E "warning: .*(deprecated|unavailable|only available|introduced in)" "$log" | grep -v "^ " | sort -u || true)
    if [ -n "$warnings" ]; then
        echo "$warnings" | sed 's/^/  /'
        echo "  $name: FAILED, availability or deprecation warnings (log: $log)"
        failed+=("$name")
        return 1
    fi
    echo "  $name: built, no availability or deprecation warning"
    passed+=("$name")
}

# MARK: app: every app-side product, from the package itself without its traits

if step app; then
    say "app: the app-side products for arm64-apple-ios16.0"
    for target in CrashtrailCore CrashtrailEncoding CrashtrailRecording CrashtrailDestinations CrashtrailAdapters CrashtrailUIKit CrashtrailSwiftUI; do
        build "$target" "$out/app-$target.log" --package-path "$link" --disable-default-traits --scratch-path "$out/root" --target "$target" || true
    done
fi

# MARK: samples: AppConsumer (an app's own package), Adopting (docs/ADOPTING.md's snippets) and PirateBay

# A copy of the sample package SAMPLE in OUT, its path to the checkout pointed at the link.
copy_sample() {
    rm -rf "${out:?}/$1" && cp -R "$root/Samples/$1" "$out/$1"
    python3 - "$out/$1/Package.swift" "$link" <<'PY'
import sys
path, link = sys.argv[1], sys.argv[2]
text = open(path).read()
assert 'path: "../.."' in text, f"{path} no longer names the checkout by path: \"../..\""
open(path, "w").write(text.replace('path: "../.."', f'path: "{link}"'))
PY
}

if step samples; then
    say "samples: AppConsumer, Adopting, PirateBay"
    copy_sample AppConsumer
    build AppConsumer "$out/sample-AppConsumer.log" --package-path "$out/AppConsumer" --scratch-path "$out/AppConsumer/.build" || true
    for target in Adopting PirateBay; do
        build "$target" "$out/sample-$target.log" --package-path "$link" --disable-default-traits --scratch-path "$out/root" --target "$target" || true
    done
fi

# MARK: app-link: the sample app (Samples/ShopApp), linked, its load commands checked

if step app-link; then
    say "app-link: Samples/ShopApp's two apps, linked for iOS"
    copy_sample ShopApp
    for product in ShopUIKit ShopSwiftUI; do
        # Each app's own toolset: its entry point. SwiftPM renames an executable's main to MODULE_main and asks the
        # linker for an alias, which Debian's ld64.lld does not implement; the entry point names it instead.
        toolset="$out/ShopApp/$product.toolset.json"
        if [ $platform = linux ]; then
            python3 - "$toolset" "$linker" "$product" "$gaps/liblane_rt.a" "$sdk_version" "$sdk" "$gaps/Frameworks" <<'PY'
import json, sys
path, linker, product, runtime, sdk, root, frameworks = sys.argv[1:]
json.dump({
    "schemaVersion": "1.0",
    "swiftCompiler": {"extraCLIOptions": ["-runtime-compatibility-version", "none", f"-ld-path={linker}"]},
    "linker": {"extraCLIOptions": [
        "-platform_version", "ios", "16.0", sdk, "-syslibroot", root, "-F", frameworks, "-e", f"_{product}_main", runtime]},
}, open(path, "w"), indent=2)
PY
        else
            echo '{"schemaVersion": "1.0"}' >"$toolset"
        fi
        if build "$product" "$out/app-link-$product.log" --package-path "$out/ShopApp" --scratch-path "$out/ShopApp/.build" \
            --toolset "$toolset" --product "$product"; then
            binary="$out/ShopApp/.build/arm64-apple-ios/debug/$product"
            if python3 "$here/iOSLane/macho-check.py" "$binary" --platform ios --minos 16.0 --sdk "$sdk_version" --sdk-root "$sdk"; then
                passed+=("$product load commands")
            else
                failed+=("$product load commands")
            fi
        fi
    done
fi

# MARK: standins: Sources/StandIns against Apple's UIKit and SwiftUI

if step standins; then
    say "standins: the stand-in modules against the SDK's UIKit and SwiftUI"
    graphs="$out/symbolgraphs"
    rm -rf "$graphs" && mkdir -p "$graphs/apple" "$graphs/standins"
    extract_flags=(-target arm64-apple-ios16.0 -sdk "$sdk" -minimum-access-level public)
    extract=(swift-symbolgraph-extract)
    if [ $platform = linux ]; then
        extract_flags+=(-resource-dir "$gaps/resource" -I "$gaps/modules")
    else
        extract=(xcrun swift-symbolgraph-extract)
    fi
    ok=1
    for module in UIKit SwiftUI; do
        "${extract[@]}" -module-name "$module" "${extract_flags[@]}" -output-dir "$graphs/apple" >"$out/standins-$module.log" 2>&1 || {
            echo "  $module: symbol graph extraction FAILED (log: $out/standins-$module.log)"
            ok=0
        }
    done
    # The stand-ins' own graphs, built for this machine (each target builds alone, also where the glue does not use it).
    if swift build --package-path "$root" --scratch-path "$out/host" --target UIKitStandIn >"$out/standins-host.log" 2>&1 \
        && swift build --package-path "$root" --scratch-path "$out/host" --target SwiftUIStandIn >>"$out/standins-host.log" 2>&1; then
        for module in UIKitStandIn SwiftUIStandIn; do
            mapfile -t modules < <(python3 "$here/iOSLane/module-flags.py" "$out/host/debug.yaml" "$module")
            "${extract[@]}" -module-name "$module" "${modules[@]}" -minimum-access-level public \
                -output-dir "$graphs/standins" >>"$out/standins-host.log" 2>&1 || ok=0
        done
    else
        echo "  the stand-ins did not build for this machine (log: $out/standins-host.log)"
        ok=0
    fi
    if [ $ok = 1 ] && python3 "$here/iOSLane/standins-check.py" "$graphs/apple" "$graphs/standins" \
        UIKitStandIn=UIKit SwiftUIStandIn=SwiftUI --sdk-version "$sdk_version"; then
        passed+=(standins)
    else
        failed+=(standins)
    fi
fi

# MARK: reporters: docs/ADOPTING.md's reporter snippets against the reporters' own sources

if step reporters; then
    say "reporters: the snippets against KSCrash, Sentry and Crashlytics"
    # shellcheck source=Tools/iOSLane/reporters.sh
    source "$here/iOSLane/reporters.sh"
    check_reporters
fi

say "summary"
for name in "${passed[@]+"${passed[@]}"}"; do echo "  passed   $name"; done
for name in "${skipped[@]+"${skipped[@]}"}"; do echo "  skipped  $name"; done
for name in "${failed[@]+"${failed[@]}"}"; do echo "  FAILED   $name"; done
[ ${#failed[@]} -eq 0 ]
