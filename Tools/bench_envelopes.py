"""Writes COUNT Sentry envelopes of the event in EVENT into FOLDER, one file each, each under an event ID of its own:
the batch baseline of the service benchmarks (Tools/serve-bench.sh, Tools/serve-profile.sh), the same envelopes
Tools/serve-bench.lua posts.

    python3 Tools/bench_envelopes.py EVENT FOLDER COUNT
"""
import os
import sys

event, folder, count = open(sys.argv[1], "rb").read(), sys.argv[2], int(sys.argv[3])
os.makedirs(folder, exist_ok=True)
for n in range(count):
    eid = "%08x%024x" % (0xBA7C, n + 1)
    item = event.replace(b"74DDB1F8-B6F2-1F71-69C4-291C85DE8EBC", eid.encode())
    body = b'{"event_id":"' + eid.encode() + b'"}\n{"type":"event","length":' + str(len(item)).encode() + b"}\n" + item + b"\n"
    with open(os.path.join(folder, "%s.envelope" % eid), "wb") as out:
        out.write(body)
