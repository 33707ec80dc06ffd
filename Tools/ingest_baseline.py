#!/usr/bin/env python3
"""Baselines for the crashtrail ingest benchmark (Tools/ingest-bench.sh).

  ingest_baseline.py store REPORTS_DIR DB   the plain-Python minimal equivalent of `crashtrail ingest`: parse each
                                            payload with `json`, pull the stored fields (id, app, os, device, time,
                                            exception, crashed thread's frames, whether a trail rides along), and
                                            insert them with the raw payload and its SHA-256 into SQLite.
  ingest_baseline.py parse REPORTS_DIR      the floor of any JSON ingester: read and parse every payload with
                                            orjson, nothing else.

Both print one line: `reports N bytes B`.
"""
import hashlib
import json
import os
import sqlite3
import sys


def walk(root):
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            if not name.startswith("."):
                yield os.path.join(folder, name)


def payloads(data, loads):
    """Yields (format, parsed payload, bytes) for every payload in a file's bytes."""
    first_end = data.find(b"\n")
    first = data if first_end < 0 else data[:first_end]
    rest = b"" if first_end < 0 else data[first_end + 1:]
    if rest.strip():
        header = loads(first)
        if "bug_type" in header:
            body = loads(rest)
            yield "ips", (header, body), data
            return
        second_end = rest.find(b"\n")
        second = loads(rest if second_end < 0 else rest[:second_end])
        if "type" in second and "event_id" not in second:
            index = first_end + 1
            while index < len(data):
                line_end = data.find(b"\n", index)
                if line_end < 0:
                    line_end = len(data)
                item = loads(data[index:line_end])
                start = line_end + 1
                if "length" in item:
                    end = start + item["length"]
                else:
                    end = data.find(b"\n", start)
                    end = len(data) if end < 0 else end
                if item.get("type") == "event":
                    yield "sentry-envelope", loads(data[start:end]), data
                index = end + 1
            return
        for line in data.split(b"\n"):
            if line.strip():
                yield "crashlytics", loads(line), line
        return
    doc = loads(data)
    if "crashtrail" in doc:
        yield "crashtrail", doc, data
    elif "report" in doc and "crash" in doc:
        yield "kscrash", doc, data
    elif "issue_id" in doc:
        yield "crashlytics", doc, data
    else:
        yield "sentry-event", doc, data


def g(obj, *path):
    for key in path:
        if isinstance(obj, dict):
            obj = obj.get(key)
        elif isinstance(obj, list) and isinstance(key, int) and -len(obj) <= key < len(obj):
            obj = obj[key]
        else:
            return None
    return obj


def fields(fmt, doc):
    """(id, bundle, version, build, os, os version, device, time, type, signal, reason, frames, has trail)."""
    if fmt == "ips":
        header, body = doc
        thread = g(body, "threads", body.get("faultingThread") or 0) or {}
        images = body.get("usedImages") or []
        frames = [[g(images, f.get("imageIndex"), "name"), f.get("symbol"), f.get("imageOffset")] for f in thread.get("frames", [])]
        return (header.get("incident_id"), g(body, "bundleInfo", "CFBundleIdentifier"), header.get("app_version"),
                header.get("build_version"), g(body, "osVersion", "train"), None, body.get("modelCode"),
                body.get("captureTime"), g(body, "exception", "type"), g(body, "exception", "signal"),
                g(body, "termination", "indicator"), frames, False)
    if fmt == "kscrash":
        system = doc.get("system") or {}
        error = g(doc, "crash", "error") or {}
        crashed = next((t for t in g(doc, "crash", "threads") or [] if t.get("crashed")), {})
        frames = [[f.get("object_name"), f.get("symbol_name"), (f.get("instruction_addr") or 0) - (f.get("object_addr") or 0)]
                  for f in g(crashed, "backtrace", "contents") or []]
        return (g(doc, "report", "id"), system.get("CFBundleIdentifier"), system.get("CFBundleShortVersionString"),
                system.get("CFBundleVersion"), system.get("system_name"), system.get("system_version"),
                system.get("machine"), str(g(doc, "report", "timestamp")),
                g(error, "nsexception", "name") or g(error, "mach", "exception_name"), g(error, "signal", "name"),
                g(error, "nsexception", "reason"), frames, g(doc, "user", "crashtrail") is not None)
    if fmt == "crashlytics":
        crashed = next((t for t in doc.get("threads") or [] if t.get("crashed")), {})
        exception = g(doc, "exceptions", -1) or {}
        frames = [[f.get("library"), f.get("symbol"), int(f.get("offset") or 0)] for f in exception.get("frames") or crashed.get("frames") or []]
        keys = {k.get("key"): k.get("value") for k in doc.get("custom_keys") or []}
        return (doc.get("event_id"), doc.get("bundle_identifier"), g(doc, "application", "display_version"),
                g(doc, "application", "build_version"), g(doc, "operating_system", "name"),
                g(doc, "operating_system", "display_version"), g(doc, "device", "model"), doc.get("event_timestamp"),
                exception.get("type") or crashed.get("signal_name"), crashed.get("signal_name"),
                exception.get("exception_message"), frames, "crashtrail.0" in keys)
    if fmt == "crashtrail":
        frames = [[f.get("image"), f.get("symbol"), f.get("offset")] for f in doc.get("frames") or []]
        return (doc.get("id"), g(doc, "app", "bundleID"), g(doc, "app", "version"), g(doc, "app", "build"),
                g(doc, "os", "name"), g(doc, "os", "version"), doc.get("device"), doc.get("time"),
                g(doc, "exception", "type"), g(doc, "exception", "signal"), g(doc, "exception", "reason"), frames,
                "trail" in doc)
    exception = g(doc, "exception", "values", -1) or {}
    frames = [[f.get("package"), f.get("function"), None] for f in reversed(g(exception, "stacktrace", "frames") or [])]
    return ((doc.get("event_id") or "").replace("-", "").lower(), g(doc, "contexts", "app", "app_identifier"),
            g(doc, "contexts", "app", "app_version"), g(doc, "contexts", "app", "app_build"), g(doc, "contexts", "os", "name"),
            g(doc, "contexts", "os", "version"), g(doc, "contexts", "device", "model"), str(doc.get("timestamp")),
            exception.get("type"), g(exception, "mechanism", "meta", "signal", "name"), exception.get("value"), frames,
            g(doc, "contexts", "crashtrail") is not None or g(doc, "extra", "crashtrail") is not None)


def store(root, db_path):
    db = sqlite3.connect(db_path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("""CREATE TABLE IF NOT EXISTS report (id TEXT PRIMARY KEY, format TEXT, sha256 TEXT, bundleID TEXT,
        appVersion TEXT, appBuild TEXT, osName TEXT, osVersion TEXT, device TEXT, time TEXT, exceptionType TEXT,
        exceptionSignal TEXT, exceptionReason TEXT, frames TEXT, hasTrail INTEGER, payload BLOB)""")
    count = 0
    total = 0
    batch = []
    for path in walk(root):
        with open(path, "rb") as handle:
            data = handle.read()
        total += len(data)
        try:
            for fmt, doc, raw in payloads(data, json.loads):
                row = fields(fmt, doc)
                digest = hashlib.sha256(raw).hexdigest()
                batch.append((row[0] or digest, fmt, digest) + row[1:11] + (json.dumps(row[11]), int(row[12]), raw))
                count += 1
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
        if len(batch) >= 256:
            db.executemany("INSERT OR IGNORE INTO report VALUES (" + ",".join("?" * 16) + ")", batch)
            db.commit()
            batch = []
    db.executemany("INSERT OR IGNORE INTO report VALUES (" + ",".join("?" * 16) + ")", batch)
    db.commit()
    print(f"reports {count} bytes {total}")


def parse_only(root):
    import orjson
    count = 0
    total = 0
    for path in walk(root):
        with open(path, "rb") as handle:
            data = handle.read()
        total += len(data)
        try:
            for _ in payloads(data, orjson.loads):
                count += 1
        except orjson.JSONDecodeError:
            continue
    print(f"reports {count} bytes {total}")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "store":
        store(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "parse":
        parse_only(sys.argv[2])
    else:
        sys.exit(__doc__)
