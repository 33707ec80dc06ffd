#!/usr/bin/env python3
"""The expected symbolication of the fixtures Tools/make-symbol-fixtures.sh builds: symbolic's and llvm-symbolizer's.

    Tools/make-symbol-fixtures.sh OUTDIR
    Tools/symbolic-reference.py OUTDIR

For every slice (arch) of every OUTDIR/*.dSYM, and of OUTDIR/stripped/* (symbol table only), the offsets looked up are:
every address that starts a row of the DWARF line table ("line"), every address an end_sequence row names that no
other row starts ("end": the padding past a function's end, e.g. x86_64's nop fill), and for every
call instruction in the binary's __TEXT,__text (bl/blr/blraa… on arm64, call on x86_64) its return address minus one,
as a crash reporter asks for a caller's frame. An offset is relative to the slice's __TEXT vmaddr (0 for a dylib,
0x100000000 for an executable), as symbolic's SymCache.lookup takes it; llvm-symbolizer is given vmaddr + offset.

Writes OUTDIR/reference.json:
    {"symbolic": VERSION, "llvmSymbolizer": VERSION,
     "slices": [{"file", "kind": "dsym"|"stripped", "arch", "uuid", "textVMAddr", "lookups": [
         {"offset", "sources": ["line"|"end"|"call"...],
          "symbolic": [{"symbol", "full_path", "line", "sym_addr", "lang"}...],   innermost (inlined) frame first;
                      null when the slice has "symbolicError"
          "llvmSymbolizer": [{"symbol", "full_path", "line", "column", "sym_addr"}...]}]}]}
Addresses are integers; sym_addr is an offset in both (llvm-symbolizer's StartAddress minus textVMAddr); symbolic 8
gives none (u32::MAX, written null) for an inlined frame, where llvm-symbolizer gives the inlined range's start. Names are linkage names (llvm-symbolizer runs with --no-demangle; symbolic's symbol is the linkage name,
without the leading underscore of a Mach-O symbol table name). Then prints how often the two agree, and examples.

symbolic 8.x cannot read the DWARF 5 dSYM (AppC5): it looks for __debug_str_offsets, and a Mach-O section name is cut to
16 characters, __debug_str_offs (fixed in symbolic by getsentry/symbolic#895, 2025). That slice then has
"symbolicError" and only llvm-symbolizer's frames.

symbolic 8.x (the PyPI build installed here) API used: symbolic.debuginfo.Archive.open(path).get_object(arch=…)
.make_symcache().lookup(offset) -> [symbolic.symcache.LineInfo(symbol, abs_path, line, sym_addr, lang …)].
"""
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter, defaultdict

from symbolic.debuginfo import Archive


def tool(env, *candidates):
    for candidate in ([os.environ[env]] if os.environ.get(env) else list(candidates)):
        found = shutil.which(candidate)
        if found:
            return found
    sys.exit(f"error: missing tool for {env}: none of {', '.join(candidates)} is installed (set {env} to its path)")


DWARFDUMP = tool("DWARFDUMP", "/usr/lib/llvm-19/bin/llvm-dwarfdump", "llvm-dwarfdump")
OBJDUMP = tool("OBJDUMP", "/usr/lib/llvm-19/bin/llvm-objdump", "llvm-objdump")
SYMBOLIZER = tool("SYMBOLIZER", "/opt/swift/usr/bin/llvm-symbolizer", "/usr/lib/llvm-19/bin/llvm-symbolizer",
                  "llvm-symbolizer")


def run(*args, stdin=None):
    return subprocess.run(args, input=stdin, capture_output=True, text=True, check=True).stdout


def text_vmaddr(path, arch):
    """The __TEXT segment's vmaddr of one slice, from its load commands."""
    segment = None
    for line in run(OBJDUMP, "--macho", "--private-headers", f"--arch={arch}", path).splitlines():
        fields = line.split()
        if fields[:1] == ["cmd"]:
            segment = None
        elif fields[:1] == ["segname"] and segment is None:
            segment = fields[1]
        elif fields[:1] == ["vmaddr"] and segment == "__TEXT":
            return int(fields[1], 16)
    sys.exit(f"error: no __TEXT segment in {path} ({arch})")


ROW = re.compile(r"^0x([0-9a-f]{16})\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\s+(?:\d+\s+)?(.*)$")


def line_table_addresses(path, arch):
    """{address: "line"} for every address that starts a row of the line table, and "end" for the address an
    end_sequence row gives (one past a sequence: the padding after a function, or the next function's start)."""
    addresses = {}
    for line in run(DWARFDUMP, "--debug-line", f"--arch={arch}", path).splitlines():
        match = ROW.match(line)
        if match:
            end = "end_sequence" in match.group(2).split()
            address = int(match.group(1), 16)
            if not end or address not in addresses:
                addresses[address] = "end" if end else "line"
    return addresses


INSTRUCTION = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)")
CALLS = {"arm64": re.compile(r"^(bl|blr|blraa|blraaz|blrab|blrabz)$"), "x86_64": re.compile(r"^call[qlw]?$")}


def call_return_addresses(path, arch):
    """For each call in __TEXT,__text, the address of the next instruction (the return address) minus one."""
    listing = run(OBJDUMP, "-d", "--no-show-raw-insn", f"--arch={arch}", path)
    instructions = [(int(m.group(1), 16), m.group(2)) for m in map(INSTRUCTION.match, listing.splitlines()) if m]
    found = set()
    for (address, mnemonic), (following, _) in zip(instructions, instructions[1:] + [(None, None)]):
        if CALLS[arch].match(mnemonic):
            if following is None:  # a call that ends the section: on arm64 every instruction is 4 bytes
                following = address + 4 if arch == "arm64" else None
            if following is not None:
                found.add(following - 1)
    return found


def symbolic_frames(symcache, offset):
    # symbolic 8 gives an inlined frame's sym_addr as u32::MAX (it has none): written as null.
    # symbolic 8's LineInfo has abs_path; 10 and later's SourceLocation has full_path.
    return [{"symbol": info.symbol, "full_path": getattr(info, "full_path", None) or getattr(info, "abs_path", None),
             "line": info.line,
             "sym_addr": None if info.sym_addr == 0xFFFFFFFF else info.sym_addr, "lang": info.lang}
            for info in symcache.lookup(offset)]


def llvm_frames(path, arch, vmaddr, offsets):
    """llvm-symbolizer's frames for each offset, one batch run per slice."""
    stdin = "".join(f"0x{vmaddr + offset:x}\n" for offset in offsets)
    output = run(SYMBOLIZER, "--inlines", "--no-demangle", "--output-style=JSON", f"--default-arch={arch}",
                 f"--obj={path}", stdin=stdin)
    answers = [json.loads(line) for line in output.splitlines() if line.strip()]
    if len(answers) != len(offsets):
        sys.exit(f"error: llvm-symbolizer answered {len(answers)} of {len(offsets)} addresses for {path} ({arch})")
    frames = []
    for offset, answer in zip(offsets, answers):
        assert int(answer["Address"], 16) == vmaddr + offset, answer
        found = []
        for symbol in answer.get("Symbol", []):
            name = symbol.get("FunctionName") if symbol.get("FunctionName") not in ("", "??") else None
            file = symbol.get("FileName") if symbol.get("FileName") not in ("", "??") else None
            start = symbol.get("StartAddress")
            if name is None and file is None and symbol.get("Line", 0) == 0:
                continue  # nothing known at this address
            found.append({"symbol": name, "full_path": file,
                          "line": symbol.get("Line", 0), "column": symbol.get("Column", 0),
                          "sym_addr": int(start, 16) - vmaddr if start else None})
        frames.append(found)
    return frames


def slices(out):
    """(file relative to out, kind, arch, debug file, binary) for each slice built."""
    found = []
    for bundle in sorted(name for name in os.listdir(out) if name.endswith(".dSYM")):
        name = bundle[: -len(".dSYM")]
        path = os.path.join(out, bundle, "Contents", "Resources", "DWARF", name)
        for obj in Archive.open(path).iter_objects():
            found.append((os.path.relpath(path, out), "dsym", obj.arch, path, os.path.join(out, name)))
    stripped = os.path.join(out, "stripped")
    for name in sorted(os.listdir(stripped)) if os.path.isdir(stripped) else []:
        path = os.path.join(stripped, name)
        for obj in Archive.open(path).iter_objects():
            found.append((os.path.relpath(path, out), "stripped", obj.arch, path, path))
    return found


def normalized(frame, kind):
    symbol = frame["symbol"]
    if kind == "stripped" and symbol and symbol.startswith("_"):
        symbol = symbol[1:]  # llvm-symbolizer names a symbol-table-only frame by its Mach-O name, with the underscore
    return (symbol, frame["full_path"] if kind == "dsym" else None, frame["line"] if kind == "dsym" else 0)


def disagreement(lookup, kind):
    """None if symbolic and llvm-symbolizer agree on each frame's name, file and line and on the chain's length."""
    ours = [normalized(frame, kind) for frame in lookup["symbolic"]]
    theirs = [normalized(frame, kind) for frame in lookup["llvmSymbolizer"]]
    if ours == theirs:
        return None
    if not ours or not theirs:
        return "symbolic has no frame" if not ours else "llvm-symbolizer has no frame"
    if len(ours) != len(theirs):
        return "inline chain length"
    for mine, other in zip(ours, theirs):
        if (mine[1] is None and mine[2] == 0) != (other[1] is None and other[2] == 0):
            return "line info on one side only"
        if mine[0] != other[0]:
            return "function"
        if mine[1] != other[1]:
            return "file"
        if mine[2] != other[2]:
            return "line 0" if 0 in (mine[2], other[2]) else "line"
    return "other"


def main():
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} OUTDIR")
    out = os.path.abspath(sys.argv[1])
    reference = {"symbolic": importlib.metadata.version("symbolic"),
                 "llvmSymbolizer": re.search(r"version (\S+)", run(SYMBOLIZER, "--version")).group(1), "slices": []}
    found = slices(out)
    if not found:
        sys.exit(f"error: no dSYM in {out}; run Tools/make-symbol-fixtures.sh {out} first")
    by_code = {}  # a stripped binary's offsets are its dSYM's (same UUID)
    totals, kinds, examples, failures = Counter(), defaultdict(Counter), defaultdict(list), []
    for file, kind, arch, path, binary in found:
        obj = Archive.open(path).get_object(arch=arch)
        uuid = obj.debug_id.upper()
        vmaddr = text_vmaddr(path, arch)
        if kind == "dsym":
            sources = defaultdict(set)
            for offset, source in line_table_addresses(path, arch).items():
                sources[offset - vmaddr].add(source)
            if os.path.exists(binary):
                for offset in call_return_addresses(binary, arch):
                    sources[offset - vmaddr].add("call")
            by_code[(uuid, arch)] = sources
        else:
            sources = by_code.get((uuid, arch)) or {}
        offsets = sorted(sources)
        try:
            symcache, error = obj.make_symcache(), None
        except Exception as failure:  # symbolic 8 cannot read a dSYM's DWARF 5 (__debug_str_offs, see above)
            symcache, error = None, " / ".join(str(failure).split("\n"))
        theirs = llvm_frames(path, arch, vmaddr, offsets)
        lookups = [{"offset": offset, "sources": sorted(sources[offset]),
                    "symbolic": symbolic_frames(symcache, offset) if symcache else None, "llvmSymbolizer": frames}
                   for offset, frames in zip(offsets, theirs)]
        slice_ = {"file": file, "kind": kind, "arch": arch, "uuid": uuid, "textVMAddr": vmaddr, "lookups": lookups}
        if error:
            slice_["symbolicError"] = error
            failures.append((file, arch, error))
        reference["slices"].append(slice_)
        for lookup in lookups:
            reason = disagreement(lookup, kind) if symcache else "symbolic failed"
            totals[(file, arch)] += 1
            kinds[(file, arch)][reason or "agree"] += 1
            if reason and len(examples[reason]) < 3 and not any(e[0] == file for e in examples[reason]):
                examples[reason].append((file, arch, vmaddr, lookup))
    with open(os.path.join(out, "reference.json"), "w") as handle:
        json.dump(reference, handle, separators=(",", ":"), sort_keys=True)
        handle.write("\n")

    print(f"symbolic {reference['symbolic']}, llvm-symbolizer {reference['llvmSymbolizer']}")
    print(f"wrote {os.path.join(out, 'reference.json')}")
    print("agreement on (linkage name, file, line) of every frame and the inline chain's length"
          " (stripped: names only):")
    for (file, arch), total in totals.items():
        counts = kinds[(file, arch)]
        rest = ", ".join(f"{reason}: {count}" for reason, count in sorted(counts.items()) if reason != "agree")
        print(f"  {file} ({arch}): {counts['agree']}/{total} agree" + (f"; {rest}" if rest else ""))
    all_total = sum(totals.values())
    all_agree = sum(counts["agree"] for counts in kinds.values())
    print(f"  all: {all_agree}/{all_total} offsets agree")
    for file, arch, error in failures:
        print(f"\n{file} ({arch}): symbolic could not make a SymCache: {error}")
    for reason, cases in sorted(examples.items()):
        if reason == "symbolic failed":
            continue
        print(f"\n{reason}:")
        for file, arch, vmaddr, lookup in cases:
            print(f"  {file} ({arch}) offset 0x{lookup['offset']:x} ({'+'.join(lookup['sources'])}) {explain(lookup)}")
            for label, frames in (("symbolic", lookup["symbolic"]), ("llvm", lookup["llvmSymbolizer"])):
                shown = " <- ".join(f"{f['symbol']} {os.path.basename(f['full_path'] or '?')}:{f['line']}"
                                    for f in frames)
                print(f"    {label:8} {shown or '(none)'}")


def explain(lookup):
    """A guess at why the two differ, from what each says."""
    ours, theirs = lookup["symbolic"], lookup["llvmSymbolizer"]
    past_end = "end" in lookup["sources"] and "line" not in lookup["sources"]
    if past_end and ours and not theirs:
        return "(past the last function of __text: symbolic stretches the last symbol, llvm-symbolizer finds none)"
    if past_end:
        return ("(padding past a function's end, covered by no line row: symbolic stretches the function's last row,"
                " llvm-symbolizer names the symbol-table symbol without a line)")
    if not ours and theirs:
        return "(symbolic: no function covers it; llvm-symbolizer found a DWARF range or symbol)"
    if ours and not theirs:
        return "(llvm-symbolizer: outside every DWARF range and symbol; symbolic fell back on the symbol table)"
    if len(ours) != len(theirs):
        return "(one side sees an inlined call the other does not, e.g. a zero-length or line-0 inline range)"
    if any(f["line"] == 0 for f in ours + theirs):
        return "(a line-0 row: one side reports 0, the other the line before)"
    return ""


if __name__ == "__main__":
    main()
