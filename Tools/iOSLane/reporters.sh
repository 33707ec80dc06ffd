# Sourced by Tools/ios-lane.sh (its `reporters` step): docs/ADOPTING.md's reporter snippets, compiled against each
# reporter's real public API where its sources are given, in place of Samples/Adopting's stand-ins.
#
#   KSCrash        CRASHTRAIL_KSCRASH: its package, KSCrashRecording built for iOS from source
#   Sentry         CRASHTRAIL_SENTRY_COCOA: its package's source build (the SentrySPM product, module SentrySwift)
#   Crashlytics    CRASHTRAIL_FIREBASE: FirebaseCrashlytics' public Objective-C headers only (the SDK builds from
#                  sources of several other repositories and binary frameworks; its headers are what Swift sees)
#
# Each may be a checkout or a bare git clone (its HEAD is unpacked into OUT/reporters). The Adopting sources are built
# in one package, OUT/ReporterCheck, with the reporters given; a lane-only file fails the build when a reporter given
# is not the one imported, so a stand-in can never stand in silently.

# The folder of a reporter's sources, unpacked as NAME under OUT/reporters from a bare clone; nothing when unset.
#   reporter_sources NAME GIVEN [PATH...]   PATHs: unpack only these (a snapshot may lack blobs elsewhere)
reporter_sources() {
    local name=$1 given=${2:-}
    shift 2 || true
    [ -n "$given" ] || return 0
    [ -d "$given" ] || { echo "ios-lane: $given (for $name) does not exist" >&2; return 1; }
    if [ -f "$given/Package.swift" ] || { [ $# -gt 0 ] && [ -e "$given/$1" ]; }; then
        (cd "$given" && pwd)
        return 0
    fi
    local git=$given
    [ -d "$given/repo" ] && git=$given/repo
    if [ "$(git -C "$git" rev-parse --is-bare-repository 2>/dev/null)" != true ]; then
        echo "ios-lane: $given (for $name) is neither a checkout with a Package.swift nor a bare git clone" >&2
        return 1
    fi
    local dest="$out/reporters/$name"
    if [ "$(cat "$dest/.commit" 2>/dev/null)" != "$(git -C "$git" rev-parse HEAD)" ]; then
        rm -rf "$dest" && mkdir -p "$dest"
        # A snapshot may lack blobs it never needed; git names them on stderr even when the paths asked for are whole.
        if ! git -C "$git" archive HEAD "$@" 2>"$dest.errors" | tar -x -C "$dest"; then
            echo "ios-lane: could not unpack $name's sources from $git: $(head -3 "$dest.errors")" >&2
            return 1
        fi
        git -C "$git" rev-parse HEAD >"$dest/.commit"
    fi
    echo "$dest"
}

check_reporters() {
    local kscrash sentry firebase
    kscrash=$(reporter_sources KSCrash "${CRASHTRAIL_KSCRASH:-}") || { failed+=("reporters: KSCrash sources"); return; }
    sentry=$(reporter_sources sentry-cocoa "${CRASHTRAIL_SENTRY_COCOA:-}") || { failed+=("reporters: Sentry sources"); return; }
    firebase=$(reporter_sources firebase-ios-sdk "${CRASHTRAIL_FIREBASE:-}" Crashlytics/Crashlytics/Public) || {
        failed+=("reporters: Firebase sources")
        return
    }
    [ -n "$kscrash" ] || { echo "  KSCrash: skipped (set CRASHTRAIL_KSCRASH to a checkout of kstenerud/KSCrash)"; skipped+=("reporters: KSCrash"); }
    [ -n "$sentry" ] || { echo "  Sentry: skipped (set CRASHTRAIL_SENTRY_COCOA to a checkout of getsentry/sentry-cocoa)"; skipped+=("reporters: Sentry"); }
    [ -n "$firebase" ] || { echo "  Crashlytics: skipped (set CRASHTRAIL_FIREBASE to a checkout of firebase/firebase-ios-sdk)"; skipped+=("reporters: Crashlytics"); }
    [ -n "$kscrash$sentry$firebase" ] || return 0
    if [ -n "$sentry" ]; then
        # sentry-cocoa's manifests add binary targets that download its release frameworks; the source build is its
        # SentrySPM product. The lane's copies of the manifests keep the source targets only (between its own markers).
        python3 - "$sentry"/Package*.swift <<'PY'
import re, sys
for path in sys.argv[1:]:
    text = open(path).read()
    for block in ("BINARY_PRODUCTS", "BINARY_TARGETS"):
        text, count = re.subn(rf"// BEGIN:{block}\n.*?// END:{block}\n", "", text, flags=re.S)
        assert count <= 1, f"{path}: {block} is marked {count} times"
    open(path, "w").write(text)
PY
        # Its sources use SwiftUI's #Preview macro, which the iOS 17 SDK brought: an SDK before it has none. The
        # lane's copy drops the previews, which are Xcode's canvas only and declare nothing.
        python3 - "$sentry/Sources" <<'PY'
import os, re, sys
dropped = 0
for folder, _, files in os.walk(sys.argv[1]):
    for name in files:
        if not name.endswith(".swift"):
            continue
        path = os.path.join(folder, name)
        text = open(path).read()
        if "#Preview" not in text:
            continue
        out, i = [], 0
        for match in re.finditer(r"(?m)^(?:@available\([^)]*\)\s*\n)?#Preview\b[^{]*\{", text):
            if match.start() < i:
                continue
            depth, j = 1, match.end()
            while depth and j < len(text):
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
            out.append(text[i:match.start()])
            i = j
            dropped += 1
        out.append(text[i:])
        open(path, "w").write("".join(out))
print(f"  sentry-cocoa: {dropped} #Preview blocks dropped from the lane's copy (the SDK predates the macro)")
PY
    fi

    reporter_package="$out/ReporterCheck"
    rm -rf "$reporter_package/Sources" && mkdir -p "$reporter_package/Sources/Adopting"
    cp "$root"/Samples/Adopting/Sources/Adopting/*.swift "$reporter_package/Sources/Adopting/"
    local guards="$reporter_package/Sources/Adopting/LaneReporters.swift"
    echo "// Written by Tools/iOSLane/reporters.sh: the reporters given must be the ones imported." >"$guards"
    if [ -n "$firebase" ]; then
        local headers="$firebase/Crashlytics/Crashlytics/Public/FirebaseCrashlytics"
        [ -f "$headers/FIRCrashlytics.h" ] || { echo "  Crashlytics: $headers/FIRCrashlytics.h is missing" >&2; failed+=("reporters: Crashlytics headers"); return; }
        mkdir -p "$reporter_package/Sources/FirebaseCrashlytics/include"
        cp "$headers"/*.h "$reporter_package/Sources/FirebaseCrashlytics/include/"
        echo '#import "FirebaseCrashlytics.h"' >"$reporter_package/Sources/FirebaseCrashlytics/Headers.m"
        printf '#if !canImport(FirebaseCrashlytics)\n#error("FirebaseCrashlytics is given but not importable")\n#endif\n' >>"$guards"
    fi
    [ -n "$kscrash" ] && printf '#if !canImport(KSCrashRecording)\n#error("KSCrash is given but KSCrashRecording is not importable")\n#endif\n' >>"$guards"
    [ -n "$sentry" ] && printf '#if !canImport(SentrySwift)\n#error("sentry-cocoa is given but SentrySwift is not importable")\n#endif\n' >>"$guards"
    python3 - "$reporter_package/Package.swift" "$link" "$kscrash" "$sentry" "$firebase" <<'PY'
import sys
path, crashtrail, kscrash, sentry, firebase = sys.argv[1:]
packages = [f'.package(path: "{crashtrail}", traits: [])']
depends = [f'.product(name: "{p}", package: "crashtrail")' for p in
           ["CrashtrailAdapters", "CrashtrailCore", "CrashtrailDestinations", "CrashtrailEncoding", "CrashtrailRecording",
            "CrashtrailSwiftUI", "CrashtrailUIKit"]]
targets = []
if kscrash:
    packages.append(f'.package(path: "{kscrash}")')
    depends.append('.product(name: "Recording", package: "KSCrash")')
if sentry:
    packages.append(f'.package(path: "{sentry}")')
    depends.append('.product(name: "SentrySPM", package: "sentry-cocoa")')
if firebase:
    targets.append('.target(name: "FirebaseCrashlytics", path: "Sources/FirebaseCrashlytics", publicHeadersPath: "include")')
    depends.append('"FirebaseCrashlytics"')
targets.append('.target(name: "Adopting", dependencies: [' + ", ".join(depends) + '], path: "Sources/Adopting")')
open(path, "w").write(f"""// swift-tools-version: 6.1
// Written by Tools/iOSLane/reporters.sh: Samples/Adopting's sources against the reporters' own APIs.
import PackageDescription

let package = Package(
    name: "ReporterCheck",
    platforms: [.iOS(.v16)],
    dependencies: [{", ".join(packages)}],
    targets: [{", ".join(targets)}]
)
""")
PY
    local names=()
    [ -n "$kscrash" ] && names+=("KSCrash $(cat "$kscrash/.commit" 2>/dev/null || echo checkout)")
    [ -n "$sentry" ] && names+=("sentry-cocoa $(cat "$sentry/.commit" 2>/dev/null || echo checkout)")
    [ -n "$firebase" ] && names+=("FirebaseCrashlytics headers")
    echo "  against: ${names[*]}"
    build "reporters: Adopting's snippets" "$out/reporters.log" --package-path "$reporter_package" --scratch-path "$reporter_package/.build" --target Adopting ||
        return 0
    check_reporter_standins "$kscrash" "$sentry" "$firebase"
}

# Holds Samples/Adopting's reporter stand-ins against the real APIs' symbol graphs, as the UIKit stand-ins are held
# against the SDK's: the real modules' graphs from the build above (with the search flags it compiled Adopting with),
# the stand-ins' from Adopting built for this machine, where they are compiled in.
check_reporter_standins() {
    local kscrash=$1 sentry=$2 firebase=$3 graphs="$out/reporter-graphs"
    rm -rf "$graphs" && mkdir -p "$graphs/real" "$graphs/standins"
    local extract=(swift-symbolgraph-extract)
    [ $platform = mac ] && extract=(xcrun swift-symbolgraph-extract)
    local flags
    mapfile -t flags < <(python3 "$here/iOSLane/module-flags.py" "$reporter_package/.build/debug.yaml" Adopting)
    local pairs=() modules=()
    [ -n "$kscrash" ] && { modules+=(KSCrashRecording); pairs+=(Adopting=KSCrashRecording:KSCrash); }
    [ -n "$sentry" ] && { modules+=(SentrySwift SentryHeaders); pairs+=(Adopting=SentrySwift:SentrySDK,SentryLastRunStatus Adopting=SentryHeaders:Scope); }
    [ -n "$firebase" ] && { modules+=(FirebaseCrashlytics); pairs+=(Adopting=FirebaseCrashlytics:Crashlytics); }
    for module in "${modules[@]}"; do
        "${extract[@]}" -module-name "$module" "${flags[@]}" -minimum-access-level public -output-dir "$graphs/real" \
            >"$out/reporter-graph-$module.log" 2>&1 || {
            echo "  $module: symbol graph extraction FAILED (log: $out/reporter-graph-$module.log)"
            failed+=("reporters: stand-ins")
            return 0
        }
    done
    if ! swift build --package-path "$root" --scratch-path "$out/host" --target Adopting >"$out/reporter-host.log" 2>&1; then
        echo "  Adopting did not build for this machine (log: $out/reporter-host.log)"
        failed+=("reporters: stand-ins")
        return 0
    fi
    local host
    mapfile -t host < <(python3 "$here/iOSLane/module-flags.py" "$out/host/debug.yaml" Adopting)
    "${extract[@]}" -module-name Adopting "${host[@]}" -minimum-access-level public -output-dir "$graphs/standins" \
        >>"$out/reporter-host.log" 2>&1 || { failed+=("reporters: stand-ins"); return 0; }
    if python3 "$here/iOSLane/standins-check.py" "$graphs/real" "$graphs/standins" "${pairs[@]}" --sdk-version "$sdk_version"; then
        passed+=("reporters: stand-ins")
    else
        failed+=("reporters: stand-ins")
    fi
}
