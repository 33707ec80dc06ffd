#!/usr/bin/env python3
"""Holds the stand-in modules (Sources/StandIns) against Apple's SDK: every public declaration of a stand-in must be
one of the framework's, with the same name, argument labels, types, accessors, isolation and availability.

    standins-check.py APPLE_GRAPHS STANDIN_GRAPHS STANDIN=REAL[:ROOT,...] ... [--sdk-version 16.4]

APPLE_GRAPHS holds the symbol graphs swift-symbolgraph-extract wrote for the real modules (UIKit.symbols.json and its
UIKit@OTHER.symbols.json extension graphs), STANDIN_GRAPHS those of the stand-in modules built for this machine.
Tools/ios-lane.sh makes both. `UIKitStandIn=UIKit` checks every public declaration of UIKitStandIn against UIKit;
`Adopting=KSCrashRecording:KSCrash` only those of Adopting under `KSCrash` (the reporters' stand-ins sit in the sample
beside the code they stand in for).

What is compared, for each public declaration of a stand-in (found by its path, `UITabBarController.selectedIndex`,
among Apple's declarations of the same kind; of several overloads, one must match):
- a function or initializer: each parameter's argument label and type, the result type, the generic constraints;
- a property: its type, whether it is settable, static or not;
- a class: its superclass and isolation (@MainActor); a protocol: the protocols it refines and its isolation;
- a protocol requirement that is `optional` in UIKit: the stand-in must give it a default implementation (the
  stand-ins' way of letting a conformance leave it out);
- availability on iOS: each version the stand-in states (introduced, deprecated, obsoleted) must be Apple's, and a
  deprecation or an introduction after the deployment target that Apple states must be stated by the stand-in too.
  A version later than the SDK's own cannot be in its graph: it is listed as unchecked, not failed.

Not compared: ownership (`weak`, `unowned(unsafe)`), `open` against `public`, default argument values, attributes
other than isolation, and the stand-ins' own helpers named in STANDIN_ONLY. Where a stand-in follows an SDK newer
than the one checked, the difference is listed in NEWER_SDK with the reason, and reported as such.

Prints each declaration checked; exits 1 when one is missing from Apple's graph or differs from it.
"""
import argparse, glob, json, os, re, sys

# Declarations of the stand-ins that are not Apple's API, by path: the stand-ins' own machinery.
STANDIN_ONLY = {
    ("KeyValueObservers",): "stands in for Foundation's key-value observing, which Linux lacks; the glue uses Foundation's on Apple platforms",
}

# Differences that come from the stand-in following an SDK newer than the one checked: (path, field) -> why.
NEWER_SDK = {
    (("View",), "isolation"): "View is @MainActor @preconcurrency from the iOS 18 SDK (only its body is before)",
    (("View", "body"), "isolation"): "View is @MainActor @preconcurrency from the iOS 18 SDK, and body with it",
    (("Never", "body"), "isolation"): "Never's body is main-actor isolated with View's from the iOS 18 SDK",
}

DEPLOYMENT = (16, 0)


def load(folder, module):
    """Every symbol of `module`'s graphs (its own and its extensions of other modules), and their relationships."""
    symbols, relationships = [], []
    paths = glob.glob(os.path.join(folder, module + ".symbols.json")) + glob.glob(os.path.join(folder, module + "@*.symbols.json"))
    if not paths:
        sys.exit(f"standins-check: no symbol graph of {module} in {folder}")
    for path in paths:
        graph = json.load(open(path))
        symbols += graph["symbols"]
        relationships += graph["relationships"]
    return symbols, relationships


def text(fragments):
    return "".join(f["spelling"] for f in fragments)


def normal_type(spelling):
    """A type as written, without module names, `Swift.`-style qualification or spaces that do not matter."""
    spelling = re.sub(r"\b(Swift|Foundation|UIKit|SwiftUI|UIKitStandIn|SwiftUIStandIn|ObjectiveC)\.", "", spelling)
    spelling = re.sub(r"\s+", " ", spelling).strip()
    spelling = spelling.replace("( ", "(").replace(" )", ")")
    return spelling


def parameter_type(parameter):
    """The type of one parameter of a functionSignature: its fragments after the name and colon."""
    whole = text(parameter["declarationFragments"])
    head, _, rest = whole.partition(": ")
    return normal_type(rest)


def attributes(symbol):
    return {f["spelling"] for f in symbol["declarationFragments"] if f["kind"] == "attribute" and f["spelling"] != "@"}


def isolation(symbol):
    found = attributes(symbol) & {"MainActor", "preconcurrency"}
    return sorted(found)


def signature(symbol, parent_isolation, owner=None):
    """What is compared of a declaration, by kind; a dictionary of named facts.

    `owner` is the type it is a member of: `Self` in its types reads as that type (an Objective-C `instancetype`
    is `Self` in Swift, a final class's own name in a stand-in)."""
    kind = symbol["kind"]["identifier"]
    def typed(spelling):
        spelling = normal_type(spelling)
        return re.sub(r"\bSelf\b", owner, spelling) if owner else spelling
    facts = {"kind": kind.replace("swift.type.property", "swift.static-property")}
    declaration = text(symbol["declarationFragments"])
    function = symbol.get("functionSignature")
    if function is not None:
        facts["parameters"] = [(p["name"], typed(parameter_type(p))) for p in function.get("parameters", [])]
        facts["returns"] = typed(text(function.get("returns", []))) or "Void"
        if facts["returns"] == "()":
            facts["returns"] = "Void"
    if kind in ("swift.property", "swift.type.property"):
        body = re.sub(r"^(?:@\w+\s+)*", "", declaration)
        match = re.search(r"\b(var|let)\s+\w+\s*:\s*(.*?)(\s*\{\s*(get(?:\s+set)?)\s*\})?$", body)
        if match:
            facts["type"] = typed(match.group(2))
            # A stored property's declaration shows no accessors: a `var` is settable, a `let` is not.
            facts["settable"] = "set" in match.group(4) if match.group(4) else match.group(1) == "var"
    generics = symbol.get("swiftGenerics") or {}
    constraints = sorted((c["kind"], c["lhs"], c["rhs"]) for c in generics.get("constraints", []))
    if constraints:
        facts["constraints"] = constraints
    # Isolation as it applies: the declaration's own, or the type's it is a member of.
    facts["isolation"] = sorted(set(isolation(symbol)) | set(parent_isolation))
    return facts


def version(entry):
    return (entry.get("major", 0), entry.get("minor", 0), entry.get("patch", 0)) if entry else None


def ios_availability(symbol):
    for entry in symbol.get("availability") or []:
        if entry.get("domain") == "iOS":
            return {key: version(entry.get(key)) for key in ("introduced", "deprecated", "obsoleted") if entry.get(key)} | (
                {"unavailable": True} if entry.get("isUnconditionallyUnavailable") else {})
    return {}


def show(v):
    return ".".join(str(x) for x in v[:2]) + (f".{v[2]}" if len(v) > 2 and v[2] else "")


def compare_availability(standin, apple, sdk):
    """Problems and unchecked facts of the stand-in's iOS availability against Apple's."""
    problems, unchecked = [], []
    mine, theirs = ios_availability(standin), ios_availability(apple)
    for key, value in mine.items():
        if key == "unavailable":
            continue
        if value > sdk and theirs.get(key) != value:
            unchecked.append(f"{key} iOS {show(value)} (newer than the SDK's {show(sdk)})")
        elif theirs.get(key) != value:
            problems.append(f"{key} iOS {show(value)} here, {show(theirs[key]) if key in theirs else 'not stated'} in the SDK")
    for key, value in theirs.items():
        if key in mine or key == "unavailable":
            continue
        if key == "deprecated" or (key == "introduced" and value > DEPLOYMENT):
            problems.append(f"the SDK states {key} iOS {show(value)}, the stand-in does not")
    return problems, unchecked


def public(symbol):
    return symbol.get("accessLevel") in ("public", "open") and "::SYNTHESIZED::" not in symbol["identifier"]["precise"]


def check(standin_module, apple_module, apple_folder, standin_folder, sdk, roots=None):
    standins, standin_rel = load(standin_folder, standin_module)
    if roots:
        standins = [s for s in standins if s["pathComponents"][0] in roots]
    apples, apple_rel = load(apple_folder, apple_module)
    by_path = {}
    for symbol in apples:
        by_path.setdefault(tuple(symbol["pathComponents"]), []).append(symbol)
    precise_path = {s["identifier"]["precise"]: tuple(s["pathComponents"]) for s in standins}
    apple_precise = {s["identifier"]["precise"]: s for s in apples}
    # Default implementations the stand-in gives requirements (by the requirement's path).
    defaults = {precise_path.get(r["target"]) for r in standin_rel if r["kind"] == "defaultImplementationOf"}
    default_sources = {r["source"] for r in standin_rel if r["kind"] == "defaultImplementationOf"}

    def names(relationships, kind, source, own):
        """The last path component of each target of `source`'s relationships of `kind`."""
        found = set()
        for r in relationships:
            if r["kind"] == kind and r["source"] == source:
                path = own.get(r["target"]) or (r.get("targetFallback") or r["target"]).split(".")
                found.add(path[-1])
        return found

    standin_paths = {p: list(path) for p, path in precise_path.items()}
    apple_paths = {p: s["pathComponents"] for p, s in apple_precise.items()}
    standin_by_path = {tuple(s["pathComponents"]): s for s in standins}

    def parent_isolation(path, table):
        parent = table.get(path[:-1]) if len(path) > 1 else None
        if isinstance(parent, list):
            parent = next((s for s in parent if s["kind"]["identifier"] in ("swift.class", "swift.protocol", "swift.struct", "swift.enum")), None)
        return isolation(parent) if parent else []

    checked = failed = 0
    unchecked_notes = []
    for symbol in sorted((s for s in standins if public(s)), key=lambda s: s["pathComponents"]):
        path = tuple(symbol["pathComponents"])
        if any(path[: len(prefix)] == prefix for prefix in STANDIN_ONLY):
            continue
        if symbol["identifier"]["precise"] in default_sources:
            continue  # a default implementation of a requirement: checked with the requirement
        name = ".".join(path)
        checked += 1
        candidates = [s for s in by_path.get(path, []) if s["kind"]["identifier"].split(".")[-1] == symbol["kind"]["identifier"].split(".")[-1]
                      or {s["kind"]["identifier"], symbol["kind"]["identifier"]} <= {"swift.type.property", "swift.static-property"}]
        candidates = candidates or by_path.get(path, [])
        if not candidates:
            print(f"  MISSING  {name}: no declaration of {apple_module} has this name and these labels")
            failed += 1
            continue
        owner = path[-2] if len(path) > 1 else None
        mine = signature(symbol, parent_isolation(path, standin_by_path), owner)
        best = None
        for apple in candidates:
            theirs = signature(apple, parent_isolation(path, by_path), owner)
            differences = []
            for key in sorted(set(mine) | set(theirs)):
                if mine.get(key) == theirs.get(key):
                    continue
                # A member's isolation comes with its type's: a type that follows a newer SDK brings its members.
                why = NEWER_SDK.get((path, key)) or (NEWER_SDK.get((path[:-1], key)) if key == "isolation" else None)
                differences.append((key, mine.get(key), theirs.get(key), why))
            if symbol["kind"]["identifier"] == "swift.class":
                here = names(standin_rel, "inheritsFrom", symbol["identifier"]["precise"], standin_paths)
                there = names(apple_rel, "inheritsFrom", apple["identifier"]["precise"], apple_paths)
                if here != there:
                    differences.append(("superclass", sorted(here), sorted(there), None))
            if symbol["kind"]["identifier"] == "swift.protocol":
                here = names(standin_rel, "conformsTo", symbol["identifier"]["precise"], standin_paths)
                there = names(apple_rel, "conformsTo", apple["identifier"]["precise"], apple_paths)
                if not here <= there:
                    differences.append(("refines", sorted(here), sorted(there), None))
            if "optional" in [f["spelling"] for f in apple["declarationFragments"] if f["kind"] == "keyword"] and path not in defaults:
                differences.append(("optional", "a requirement without a default implementation", "optional", None))
            problems, unchecked = compare_availability(symbol, apple, sdk)
            differences += [("availability", p, None, None) for p in problems]
            hard = [d for d in differences if d[3] is None]
            if best is None or len(hard) < len(best[1]):
                best = (apple, hard, [d for d in differences if d[3] is not None], unchecked)
        apple, hard, newer, unchecked = best
        if hard:
            failed += 1
            print(f"  DIFFERS  {name}: {text(apple['declarationFragments'])}")
            for key, here, there, _ in hard:
                print(f"             {key}: stand-in {here!r}, SDK {there!r}" if there is not None or key != "availability" else f"             {key}: {here}")
        else:
            print(f"  ok       {name}")
        for key, here, there, why in newer:
            print(f"             {key} follows a newer SDK: {why}")
        for note in unchecked:
            print(f"             unchecked: {note}")
            unchecked_notes.append(f"{name}: {note}")
    return checked, failed, unchecked_notes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("apple")
    parser.add_argument("standins")
    parser.add_argument("modules", nargs="+", help="STANDIN=APPLE pairs")
    parser.add_argument("--sdk-version", default="16.4")
    args = parser.parse_args()
    sdk = tuple(int(x) for x in (args.sdk_version.split(".") + ["0", "0"])[:3])
    total = failures = 0
    notes = []
    for pair in args.modules:
        standin, _, real = pair.partition("=")
        apple, _, under = real.partition(":")
        roots = set(under.split(",")) if under else None
        what = f"{standin}'s {', '.join(sorted(roots))}" if roots else standin
        print(f"  {what} against {apple}:")
        checked, failed, unchecked = check(standin, apple, args.apple, args.standins, sdk, roots)
        if roots and checked == 0:
            print(f"  {what}: no public declaration found under {', '.join(sorted(roots))}")
            failed = 1
        print(f"  {what}: {checked} declarations, {checked - failed} as in {apple}, {failed} missing or differing")
        total += checked
        failures += failed
        notes += unchecked
    print(f"  stand-ins: {total} declarations checked, {failures} missing or differing, {len(notes)} facts newer than the SDK unchecked")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
