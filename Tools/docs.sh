#!/usr/bin/env bash
# Builds the DocC documentation of every library, treating any warning (a broken symbol link, an undocumented
# parameter) as an error. The archives land in .build/plugins/Swift-DocC/outputs/.
#   Tools/docs.sh                 every library
#   Tools/docs.sh CrashtrailCore  one of them
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(CrashtrailCore CrashtrailRecording CrashtrailDestinations CrashtrailAdapters CrashtrailUIKit CrashtrailSwiftUI CrashtrailEncoding CrashtrailReplay CrashtrailReports CrashtrailFormats CrashtrailStore CrashtrailSymbols CrashtrailIntake CrashtrailForward CrashtrailService CrashtrailServer CrashtrailTesting)
args=()
for target in "${targets[@]}"; do args+=(--target "$target"); done
swift package generate-documentation "${args[@]}" --warnings-as-errors
