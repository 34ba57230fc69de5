"""A fixture micro-app: a counter whose keys exercise every part of the protocol."""
import json
import sys

count = 0
heard = "nothing yet"
answer = ""
step = 1
revision = 0


def send(message):
    message["jsonrpc"] = "2.0"
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def tree():
    return {"type": "stack", "direction": "rows", "children": [
        {"type": "text", "text": f"count {count}", "size": 1},
        {"type": "text", "text": f"heard {heard}", "size": 1},
        {"type": "text", "text": f"answer {answer}", "size": 1},
        {"type": "text", "text": f"step {step}", "size": 1},
    ]}


def view():
    global revision
    revision += 1
    send({"method": "view", "params": {"revision": revision, "root": tree()}})


for line in sys.stdin:
    message = json.loads(line)
    method = message.get("method")
    params = message.get("params") or {}
    if method == "initialize":
        count = (params.get("state") or {}).get("count", 0)
        step = int((params.get("settings") or {}).get("step", "1"))
        # What the canvas knew before the app started: the last event of each name it hears.
        for event in params.get("events") or []:
            heard = f"{event.get('name')} {json.dumps(event.get('payload'))} before"
        send({"id": message["id"], "result": {"protocol": "1.0", "capabilities": {"keys": True},
                                                "view": {"revision": 0, "root": tree()}}})
    elif method == "key":
        key = params.get("key")
        if key == "+":
            count += step
            send({"method": "state.save", "params": {"state": {"count": count}}})
            send({"method": "bus.publish", "params": {"name": "counter.count.changed", "summary": f"count {count}",
                                                      "payload": {"count": count}}})
        elif key == "x":
            send({"method": "bus.publish", "params": {"name": "calendar.date.selected", "payload": {}}})
        elif key == "h":
            send({"id": 7, "method": "http", "params": {"method": "GET", "path": "/api/todo/items"}})
        elif key == "s":
            send({"id": 8, "method": "http", "params": {"method": "GET", "path": "/api/chat/channels"}})
        elif key == "c":
            sys.exit(3)
        view()
    elif method == "settings":
        step = int(params["settings"].get("step", "1"))
        view()
    elif method == "bus.event":
        heard = f"{params.get('name')} {json.dumps(params.get('payload'))}"
        view()
    elif "id" in message and method is None:
        answer = json.dumps(message.get("result", message.get("error")))[:60]
        view()
    elif method == "shutdown":
        send({"id": message["id"], "result": None})
    elif method == "exit":
        break
