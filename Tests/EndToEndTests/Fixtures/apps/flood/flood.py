"""Writes 100 MB: 500 views of 200 KB, a 1 MB line, 1000 publishes, then a last small view."""
import json
import sys


def send(message):
    message["jsonrpc"] = "2.0"
    sys.stdout.write(json.dumps(message) + "\n")


for line in sys.stdin:
    message = json.loads(line)
    if message.get("method") == "initialize":
        send({"id": message["id"], "result": {"protocol": "1.0"}})
        sys.stdout.flush()
        filler = "x" * 200_000
        for revision in range(1, 501):
            send({"method": "view", "params": {"revision": revision, "root": {"type": "text", "text": f"view {revision} {filler}"}}})
        sys.stdout.write("y" * 1_000_000 + "\n")
        for drop in range(1000):
            send({"method": "bus.publish", "params": {"name": "flood.drop.fell", "summary": f"drop {drop}"}})
        send({"method": "view", "params": {"revision": 501, "root": {"type": "text", "text": "flood done"}}})
        sys.stdout.flush()
    elif message.get("method") == "key":
        send({"method": "view", "params": {"revision": 502, "root": {"type": "text", "text": "flood answered"}}})
        sys.stdout.flush()
    elif message.get("method") == "shutdown":
        send({"id": message["id"], "result": None})
        sys.stdout.flush()
    elif message.get("method") == "exit":
        break
