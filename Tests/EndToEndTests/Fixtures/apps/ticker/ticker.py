"""A fixture micro-app that sends a new view every 100 ms (a clock, a progress bar), so a
benchmark can measure keys in another pane while one pane is redrawn ten times a second."""
import json
import select
import sys

revision = 0


def send(message):
    message["jsonrpc"] = "2.0"
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def tree():
    return {"type": "stack", "direction": "rows", "children": [
        {"type": "text", "text": f"tick {revision}", "size": 1},
        {"type": "gauge", "label": "load", "value": (revision % 100) / 100, "text": f"{revision % 100}%", "size": 1},
    ]}


started = False
while True:
    ready, _, _ = select.select([sys.stdin], [], [], 0.1 if started else None)
    if ready:
        chunk = sys.stdin.readline()
        if not chunk:
            break
        message = json.loads(chunk)
        if message.get("method") == "initialize":
            send({"id": message["id"], "result": {"protocol": "1.0", "view": {"revision": 0, "root": tree()}}})
            started = True
        elif message.get("method") == "shutdown":
            send({"id": message["id"], "result": None})
        elif message.get("method") == "exit":
            break
        continue
    revision += 1
    send({"method": "view", "params": {"revision": revision, "root": tree()}})
