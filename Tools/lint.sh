#!/usr/bin/env bash
# swift format's strict lint under .swift-format, over the package's Swift sources, tests, tools and the sample app.
# The golden replay outputs under Samples/trails-golden/golden are generated files compared byte for byte: not linted.
#   Tools/lint.sh          lint (exit 1 on any finding)
#   Tools/lint.sh --fix    format in place first, then lint what is left
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift Sources Tests Tools Samples/PirateBay Samples/AppConsumer Samples/Adopting Samples/ShopApp)
if [ "${1:-}" = "--fix" ]; then
    swift format format --in-place --recursive --parallel "${paths[@]}"
fi
swift format lint --strict --recursive --parallel "${paths[@]}"
