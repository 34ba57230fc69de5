"""Puts terminal escape sequences in every string it sends, on stderr, and at /dev/tty if it can."""
import json
import sys

EVIL = "\x1b]0;pwned\x07\x1b[2J\x1b[31mRED\x1b[0m\x9b1;1H\u202eevil\x07"
sys.stderr.write(EVIL + "\n")
sys.stderr.flush()
try:
    with open("/dev/tty", "w") as tty:
        tty.write(EVIL)
except OSError as error:
    sys.stderr.write(f"no terminal: {error}\n")
for line in sys.stdin:
    message = json.loads(line)
    if message.get("method") == "initialize":
        root = {"type": "stack", "children": [
            {"type": "text", "text": "T" + EVIL, "size": 1, "role": "\x1b[5m"},
            {"type": "list", "items": ["L" + EVIL], "selected": 0, "size": 1},
            {"type": "table", "columns": ["C" + EVIL], "rows": [["R" + EVIL]], "size": 2},
            {"type": "kv", "items": [["K" + EVIL, "V" + EVIL]], "size": 1},
            {"type": "gauge", "label": "G" + EVIL, "value": 0.5, "text": EVIL, "size": 1},
            {"type": "lines", "lines": [[{"text": "S" + EVIL, "role": "error"}]], "size": 1},
        ]}
        print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {"protocol": "1.0", "view": {"revision": 1, "root": root}}}),
              flush=True)
    elif message.get("method") == "shutdown":
        print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": None}), flush=True)
    elif message.get("method") == "exit":
        break
