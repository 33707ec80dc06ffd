#!/usr/bin/env python3
"""Counts each library's public symbols from the symbol graphs SwiftPM writes.

    swift package dump-symbol-graph --minimum-access-level public
    Tools/public-symbols.py [--list MODULE]

Counts every symbol the graph of a library (and its extensions of other modules, `MODULE@OTHER`) holds at public
access, excluding synthesized members (such as a Hashable type's `hashValue`). docs/ARCHITECTURE.md quotes the counts.
"""
import glob, json, os, sys

LIBRARIES = ["CrashtrailCore", "CrashtrailEncoding", "CrashtrailRecording", "CrashtrailDestinations", "CrashtrailAdapters", "CrashtrailUIKit", "CrashtrailSwiftUI", "CrashtrailReplay", "CrashtrailTesting",
             "CrashtrailReports", "CrashtrailFormats", "CrashtrailStore", "CrashtrailIntake", "CrashtrailPostgres", "CrashtrailSymbols", "CrashtrailForward",
             "CrashtrailService", "CrashtrailServer"]

def symbols(folder, module):
    found = []
    for path in glob.glob(os.path.join(folder, module + ".symbols.json")) + glob.glob(os.path.join(folder, module + "@*.symbols.json")):
        graph = json.load(open(path))
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") != "public" or "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                continue
            found.append((symbol["kind"]["displayName"], ".".join(symbol["pathComponents"])))
    return sorted(found, key=lambda item: item[1])

folder = glob.glob(".build/*/symbolgraph")[0]
if len(sys.argv) == 3 and sys.argv[1] == "--list":
    for kind, name in symbols(folder, sys.argv[2]):
        print(f"{kind:20} {name}")
    sys.exit(0)
total = 0
for module in LIBRARIES:
    count = len(symbols(folder, module))
    total += count
    print(f"{module:22} {count:5}")
print(f"{'all':22} {total:5}")
