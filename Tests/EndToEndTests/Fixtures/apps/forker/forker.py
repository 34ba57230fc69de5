"""A fork bomb held back only by the kernel: at start, forks children that wait forever until a
fork fails (or FORKER_MOST are running, 300 if unset), then shows `started=N refused=ERRNO`."""
import errno
import json
import os
import signal
import sys

most = int(os.environ.get("FORKER_MOST", "300"))
started, refused = 0, "none"
while started < most:
    try:
        pid = os.fork()
    except OSError as error:
        refused = errno.errorcode.get(error.errno, str(error.errno))
        break
    if pid == 0:
        while True:
            signal.pause()
    started += 1

for line in sys.stdin:
    message = json.loads(line)
    if message.get("method") == "initialize":
        print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {
            "protocol": "1.0", "view": {"revision": 1, "root": {"type": "text", "text": f"started={started} refused={refused}"}}}}),
              flush=True)
    elif message.get("method") == "shutdown":
        print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": None}), flush=True)
    elif message.get("method") == "exit":
        sys.exit(0)
