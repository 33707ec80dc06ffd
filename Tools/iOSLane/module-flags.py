#!/usr/bin/env python3
"""Prints, one a line, the search flags SwiftPM compiled a Swift module with (its -I, -F, -Xcc, -sdk, -target,
-resource-dir and -module-cache-path), read from the build's llbuild manifest, so swift-symbolgraph-extract can load
the modules that module imported (Tools/iOSLane/reporters.sh).

    module-flags.py BUILD/debug.yaml MODULE
"""
import json, re, sys

manifest, module = sys.argv[1], sys.argv[2]
text = open(manifest).read()
match = re.search(r'"C\.%s-[^"]*\.module":\n(?:.*\n)*?\s+args: (\[.*\])' % re.escape(module), text)
if not match:
    sys.exit(f"module-flags: {manifest} holds no command compiling {module}")
args = json.loads(match.group(1))
flags, index = [], 0
while index < len(args):
    if args[index] in ("-I", "-F", "-Xcc", "-sdk", "-target", "-resource-dir", "-module-cache-path") and index + 1 < len(args):
        flags += args[index:index + 2]
        index += 2
    else:
        index += 1
print("\n".join(flags))
