#!/usr/bin/env python3
"""Checks an iOS executable's load commands, as the iOS lane requires of the sample app.

    macho-check.py BINARY --platform ios --minos 16.0 --sdk 16.5 --sdk-root SDK

- It is an arm64 Mach-O executable whose LC_BUILD_VERSION says the platform, the minimum OS and the SDK given.
- Every library it loads is one the SDK has (a `.tbd` stub under SDK for each install name, /usr/lib or
  /System/Library/Frameworks), so it links nothing from this machine.
- No symbol is undefined: each symbol it imports is bound to one of those libraries (two-level namespace), none is
  looked up dynamically.

Reads the binary with llvm-objdump and llvm-nm (Debian's llvm, or the toolchain's; on a Mac through xcrun). Prints
what it checked; exits 1 with each problem named when a check fails.
"""
import argparse, os, re, shutil, subprocess, sys

PLATFORMS = {"macos": "1", "ios": "2", "tvos": "3", "watchos": "4"}


def tool(name):
    found = shutil.which(name)
    if found:
        return [found]
    if shutil.which("xcrun"):
        return ["xcrun", name]
    sys.exit(f"macho-check: {name} is not on the PATH (apt-get install llvm, or Xcode's command-line tools)")


def run(command):
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"macho-check: {' '.join(command)} failed: {done.stderr.strip()}")
    return done.stdout


def load_commands(binary):
    """The load commands as dictionaries of their fields, in order."""
    commands, current = [], None
    for line in run(tool("llvm-objdump") + ["--macho", "--private-headers", binary]).splitlines():
        line = line.strip()
        if line.startswith("Load command"):
            current = {}
            commands.append(current)
        elif current is not None and line:
            key, _, value = line.partition(" ")
            current.setdefault(key, value.strip())
    return commands


def header(binary):
    text = run(tool("llvm-objdump") + ["--macho", "--private-header", binary])
    return text


def stub_for(install_name, sdk_root):
    """The SDK's stub of a library's install name, or None."""
    base, _ = os.path.splitext(install_name)
    for candidate in (base + ".tbd", install_name + ".tbd"):
        path = os.path.join(sdk_root, candidate.lstrip("/"))
        if os.path.exists(path):
            return path
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--platform", required=True, choices=sorted(PLATFORMS))
    parser.add_argument("--minos", required=True)
    parser.add_argument("--sdk", required=True)
    parser.add_argument("--sdk-root", required=True)
    args = parser.parse_args()
    problems = []
    name = os.path.basename(args.binary)

    mach_header = header(args.binary)
    if "EXECUTE" not in mach_header or "ARM64" not in mach_header:
        problems.append(f"not an arm64 Mach-O executable:\n{mach_header}")

    commands = load_commands(args.binary)
    builds = [c for c in commands if c.get("cmd") == "LC_BUILD_VERSION"]
    if len(builds) != 1:
        problems.append(f"{len(builds)} LC_BUILD_VERSION commands, not 1")
    for build in builds:
        platform = build.get("platform", "")
        if platform not in (PLATFORMS[args.platform], args.platform):
            problems.append(f"platform {platform}, not {args.platform} ({PLATFORMS[args.platform]})")
        if build.get("minos") != args.minos:
            problems.append(f"minos {build.get('minos')}, not {args.minos}")
        if build.get("sdk") != args.sdk:
            problems.append(f"sdk {build.get('sdk')}, not {args.sdk}")

    libraries = [c["name"].split(" (offset")[0] for c in commands if c.get("cmd") in ("LC_LOAD_DYLIB", "LC_LOAD_WEAK_DYLIB")]
    for library in libraries:
        if not (library.startswith("/usr/lib/") or library.startswith("/System/Library/")):
            problems.append(f"loads {library}, which is no library of the OS")
        elif stub_for(library, args.sdk_root) is None:
            problems.append(f"loads {library}, which the SDK has no stub for")

    undefined = run(tool("llvm-nm") + ["-m", "--undefined-only", args.binary]).splitlines()
    unbound = [line.strip() for line in undefined if line.strip() and "(from " not in line]
    for line in unbound:
        problems.append(f"undefined symbol not bound to a library: {line}")
    bound_to = sorted({m.group(1) for line in undefined for m in [re.search(r"\(from ([^)]+)\)", line)] if m})

    if problems:
        print(f"  {name}: load commands FAILED")
        for problem in problems:
            print(f"    {problem}")
        sys.exit(1)
    print(f"  {name}: arm64 executable, platform {args.platform}, minos {args.minos}, sdk {args.sdk}")
    print(f"  {name}: loads {len(libraries)} libraries of the SDK: {', '.join(os.path.basename(l) for l in libraries)}")
    print(f"  {name}: {len(undefined)} imported symbols, each bound to one of them ({', '.join(bound_to)}); none undefined")


if __name__ == "__main__":
    main()
