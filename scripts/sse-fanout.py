#!/usr/bin/env python3
"""Chat fan-out benchmark: N clients hold /api/events open; messages are posted to
/api/chat/channels/general/messages one at a time; for every message and every client the time
from the POST being sent to the event arriving is recorded. Prints the percentiles over all
(message, client) deliveries and the slowest message's complete fan-out.

usage: sse-fanout.py BASE_URL[,BASE_URL…] TOKEN [--clients 500] [--messages 20]

With several servers (instances on one database) the clients are spread over them in turn and the
messages are posted to the first.
"""
import argparse, asyncio, json, statistics, time, urllib.parse


async def open_stream(host, port, token):
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET /api/events HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n"
                 "Accept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200"):
        raise SystemExit(f"stream refused: {head[:100]!r}")
    return reader, writer


async def consume(reader, arrivals, index):
    """Records when each chat.message.posted event (by message id) reaches client `index`."""
    buffer = b""
    while True:
        chunk = await reader.read(65536)
        if not chunk:
            return
        buffer += chunk
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            lines = block.decode(errors="replace").split("\n")
            if "event: chat.message.posted" not in lines:
                continue
            data = next((l[6:] for l in lines if l.startswith("data: ")), "{}")
            arrivals.setdefault(json.loads(data)["id"], {})[index] = time.perf_counter()


async def post(host, port, token, text):
    reader, writer = await asyncio.open_connection(host, port)
    body = json.dumps({"text": text}).encode()
    writer.write(f"POST /api/chat/channels/general/messages HTTP/1.1\r\nHost: {host}\r\n"
                 f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
    await writer.drain()
    response = await reader.read()
    writer.close()
    head, _, payload = response.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 201"):
        raise SystemExit(f"post failed: {head[:100]!r}")
    return json.loads(payload)["id"]


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("token")
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--messages", type=int, default=20)
    args = parser.parse_args()
    urls = [urllib.parse.urlparse(base) for base in args.base.split(",")]
    url = urls[0]
    streams = []
    for start in range(0, args.clients, 50):  # connect in batches, not all at once
        streams += await asyncio.gather(*(open_stream(urls[i % len(urls)].hostname, urls[i % len(urls)].port, args.token)
                                          for i in range(start, min(args.clients, start + 50))))
    arrivals = {}
    tasks = [asyncio.create_task(consume(reader, arrivals, i)) for i, (reader, _) in enumerate(streams)]
    await asyncio.sleep(0.5)
    latencies, fanouts = [], []
    for n in range(args.messages):
        sent = time.perf_counter()
        message = await post(url.hostname, url.port, args.token, f"fan-out {n}")
        deadline = time.perf_counter() + 10
        while len(arrivals.get(message, {})) < args.clients and time.perf_counter() < deadline:
            await asyncio.sleep(0.001)
        got = arrivals.get(message, {})
        if len(got) < args.clients:
            raise SystemExit(f"message {message}: only {len(got)} of {args.clients} clients got it")
        delays = [(t - sent) * 1000 for t in got.values()]
        latencies += delays
        fanouts.append(max(delays))
        await asyncio.sleep(0.2)
    latencies.sort()
    q = statistics.quantiles(latencies, n=100)
    print(f"clients={args.clients} messages={args.messages} deliveries={len(latencies)}")
    print(f"delivery latency ms: p50={q[49]:.1f} p90={q[89]:.1f} p99={q[98]:.1f} max={latencies[-1]:.1f}")
    print(f"full fan-out (last client) ms: median={statistics.median(fanouts):.1f} max={max(fanouts):.1f}")
    for task in tasks:
        task.cancel()
    for _, writer in streams:
        writer.close()


asyncio.run(main())
