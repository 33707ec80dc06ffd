"""A minimal Sentry-compatible upstream for the forwarding benchmarks (Tools/serve-bench.sh, Tools/forward-bench.sh).

Answers every envelope 200 at once, keeping connections alive, and counts the event IDs it receives. It prints two
ports: the upstream's, and one where each connection reads the counts since the previous one ("EVENTS REPEATED":
events received, and event IDs received more than once).

    python3 Tools/bench_sink.py > PORTS
"""
import asyncio
import collections
import json

seen = collections.Counter()


async def handle(reader, writer):
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            body = await reader.readexactly(length)
            seen[json.loads(body.split(b"\n", 1)[0])["event_id"]] += 1
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        writer.close()


async def report(reader, writer):
    writer.write(f"{sum(seen.values())} {sum(1 for n in seen.values() if n > 1)}\n".encode())
    seen.clear()
    await writer.drain()
    writer.close()


async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    counts = await asyncio.start_server(report, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], counts.sockets[0].getsockname()[1], flush=True)
    async with server, counts:
        await asyncio.gather(server.serve_forever(), counts.serve_forever())


asyncio.run(main())
