"""Counts its runs in its state, shows the count, saves it, and exits 1 a moment later."""
import json
import os
import sys
import threading

for line in sys.stdin:
    message = json.loads(line)
    if message.get("method") == "initialize":
        runs = ((message["params"].get("state") or {}).get("runs") or 0) + 1
        print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {
            "protocol": "1.0", "view": {"revision": runs, "root": {"type": "text", "text": f"runs {runs}"}}}}), flush=True)
        print(json.dumps({"jsonrpc": "2.0", "method": "state.save", "params": {"state": {"runs": runs}}}), flush=True)
        threading.Timer(0.3, lambda: os._exit(1)).start()
