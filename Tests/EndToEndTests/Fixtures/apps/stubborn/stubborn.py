"""Answers initialize, then ignores shutdown, exit and SIGTERM."""
import json
import signal
import sys

signal.signal(signal.SIGTERM, signal.SIG_IGN)
for line in sys.stdin:
    message = json.loads(line)
    if message.get("method") == "initialize":
        print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {
            "protocol": "1.0", "view": {"revision": 1, "root": {"type": "text", "text": "stubborn"}}}}), flush=True)
    elif message.get("method") == "key":
        print(json.dumps({"jsonrpc": "2.0", "method": "view", "params": {"revision": 2, "root": {"type": "text", "text": "still here"}}}),
              flush=True)
signal.pause()
