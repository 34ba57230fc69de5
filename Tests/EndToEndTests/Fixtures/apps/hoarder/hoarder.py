"""Answers initialize, then fills its temporary folder (its data folder with HOARDER_IN=data) as
HOARDER says, and shows `kept` when it is done:
  files:N:SIZE   N files of SIZE bytes
  big:SIZE       one file of SIZE bytes
  entries:N      N empty files
  deep:N         folders N levels deep
  unlinked:N:SIZE  N files of SIZE bytes, each unlinked once open, and kept open"""
import json
import os
import sys

kind, *numbers = os.environ.get("HOARDER", "files:1:1").split(":")
numbers = [int(n) for n in numbers]
held = []
where = os.environ["TERMCANVAS_DATA_DIR" if os.environ.get("HOARDER_IN") == "data" else "TMPDIR"]


def send(message):
    print(json.dumps({"jsonrpc": "2.0", **message}), flush=True)


def view(text):
    send({"method": "view", "params": {"revision": 2, "root": {"type": "text", "text": text}}})


def hoard():
    if kind == "files":
        for i in range(numbers[0]):
            with open(os.path.join(where, f"f{i}"), "wb") as f:
                f.write(b"x" * numbers[1])
    elif kind == "big":
        with open(os.path.join(where, "big"), "wb") as f:
            f.write(b"x" * numbers[0])
    elif kind == "entries":
        for i in range(numbers[0]):
            open(os.path.join(where, f"e{i}"), "wb").close()
    elif kind == "unlinked":
        for i in range(numbers[0]):
            path = os.path.join(where, f"u{i}")
            f = open(path, "wb")
            os.unlink(path)
            f.write(b"x" * numbers[1])
            f.flush()
            held.append(f)
    elif kind == "deep":
        path = where
        for i in range(numbers[0]):
            path = os.path.join(path, "d")
            os.mkdir(path)


for line in sys.stdin:
    message = json.loads(line)
    if message.get("method") == "initialize":
        send({"id": message["id"], "result": {"protocol": "1.0", "view": {"revision": 1, "root": {"type": "text", "text": "hoarding"}}}})
        hoard()
        view("kept")
    elif message.get("method") == "shutdown":
        send({"id": message["id"], "result": None})
    elif message.get("method") == "exit":
        break
