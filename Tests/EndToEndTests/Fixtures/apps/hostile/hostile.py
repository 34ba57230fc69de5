"""A fixture micro-app that misbehaves on a key, to show the canvas survives it.

t  a view of the text HOSTILE-TRAP: with TERMCANVAS_TEST_TRAP=HOSTILE-TRAP the canvas traps
v  a sparkline of 1e308 and -1e308 (it once ended the dashboard)
d  a daemon: a double fork into a new session, which sleeps; its pid is shown
g  a child in its own process group, which sleeps; its pid is shown
p  three publishes it may not make
f  one endless line without a newline
w  views as fast as it can (about 1000 a second), for good
With HOSTILE_MODE=flood it does f right after initialize; with HOSTILE_MODE=views, w, but with a
picture that changes once a thousand views (every view is new, its revision); with
HOSTILE_MODE=views-changing, w (scripts/bench-hostile-apps measures the dashboard beside each).
Its view always says the size it was told, in initialize and in each resize, and which run it
is (counted in its saved state).
"""
import json
import os
import sys
import time

size = "unknown"
runs = 0
note = ""
revision = 0


def send(message):
    message["jsonrpc"] = "2.0"
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def tree():
    return {"type": "stack", "children": [
        {"type": "text", "text": f"size {size} run {runs}", "size": 1},
        {"type": "text", "text": note, "size": 1},
    ]}


def view(root=None):
    global revision
    revision += 1
    send({"method": "view", "params": {"revision": revision, "root": root or tree()}})


def flood():
    chunk = "x" * 65536
    while True:
        sys.stdout.write(chunk)


def views(changing=True):
    global note
    while True:
        note = f"view {revision if changing else revision // 1000 * 1000}"
        view()
        time.sleep(0.001)


def told(params):
    global size
    size = f"{params.get('width')}x{params.get('height')}"


def daemon():
    """The classic double fork: the grandchild, in a session of its own, outlives its parent."""
    reader, writer = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.write(writer, str(os.getpid()).encode())
            os.close(writer)
            for fd in range(0, 3):
                os.close(fd)
            os.execvp("sleep", ["sleep", "1001"])
        os._exit(0)
    os.close(writer)
    pid = os.read(reader, 32).decode()
    os.close(reader)
    return pid


def child():
    pid = os.fork()
    if pid == 0:
        os.close(0)
        os.close(1)
        os.execvp("sleep", ["sleep", "1002"])
    return str(pid)


for line in sys.stdin:
    message = json.loads(line)
    method = message.get("method")
    params = message.get("params") or {}
    if method == "initialize":
        told(params.get("size") or {})
        runs = ((params.get("state") or {}).get("runs") or 0) + 1
        send({"id": message["id"], "result": {"protocol": "1.0", "view": {"revision": 0, "root": tree()}}})
        send({"method": "state.save", "params": {"state": {"runs": runs}}})
        mode = os.environ.get("HOSTILE_MODE")
        if mode == "flood":
            flood()
        elif mode == "views":
            views(changing=False)
        elif mode == "views-changing":
            views()
    elif method == "resize":
        told(params)
        view()
    elif method == "key":
        key = params.get("key")
        if key == "t":
            view({"type": "text", "text": "HOSTILE-TRAP"})
        elif key == "v":
            view({"type": "sparkline", "values": [1e308, -1e308]})
        elif key == "d":
            note = f"daemon {daemon()}"
            view()
        elif key == "g":
            note = f"child {child()}"
            view()
        elif key == "p":
            for _ in range(3):
                send({"method": "bus.publish", "params": {"name": "calendar.date.selected", "payload": {}}})
            note = "published 3"
            view()
        elif key == "f":
            flood()
        elif key == "w":
            views()
    elif method == "shutdown":
        send({"id": message["id"], "result": None})
    elif method == "exit":
        break
