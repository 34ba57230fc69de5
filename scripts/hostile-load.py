#!/usr/bin/env python3
"""Keeps sessions of remote apps busy through a server's proxy for a while: each worker opens a
session, reads its event stream as fast as it comes, and sends a key every 100 ms; a failed
session is opened again after half a second. Prints what got through.
Usage: hostile-load.py SERVER TOKEN SECONDS APP [APP...] [--sessions N]   (N per app, default 4)
"""
import argparse
import json
import threading
import time
import urllib.error
import urllib.request


def request(server, token, method, path, body=None, timeout=10):
    headers = {"Authorization": f"Bearer {token}"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    return urllib.request.urlopen(urllib.request.Request(server + path, data=body, method=method, headers=headers),
                                  timeout=timeout)


def worker(server, token, app, deadline, totals, lock):
    initialize = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}).encode()
    key = json.dumps({"jsonrpc": "2.0", "method": "key", "params": {"key": "c"}}).encode()
    while time.time() < deadline:
        try:
            with request(server, token, "POST", f"/api/apps/{app}/sessions", initialize) as answer:
                session = json.load(answer)["session"]
        except (urllib.error.URLError, OSError, ValueError):
            with lock:
                totals["failed opens"] += 1
            time.sleep(0.5)
            continue

        def read():
            try:
                with request(server, token, "GET", f"/api/apps/{app}/sessions/{session}/events",
                             timeout=max(1, deadline - time.time())) as stream:
                    while time.time() < deadline:
                        chunk = stream.read1(65536)
                        if not chunk:
                            break
                        with lock:
                            totals["stream bytes"] += len(chunk)
            except (urllib.error.URLError, OSError):
                pass

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        while time.time() < deadline and reader.is_alive():
            try:
                with request(server, token, "POST", f"/api/apps/{app}/sessions/{session}/messages", key, timeout=5):
                    pass
                with lock:
                    totals["keys"] += 1
            except (urllib.error.URLError, OSError):
                with lock:
                    totals["failed keys"] += 1
                break
            time.sleep(0.1)
        try:
            request(server, token, "DELETE", f"/api/apps/{app}/sessions/{session}", timeout=5).close()
        except (urllib.error.URLError, OSError):
            pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("server")
    parser.add_argument("token")
    parser.add_argument("seconds", type=float)
    parser.add_argument("apps", nargs="+")
    parser.add_argument("--sessions", type=int, default=4)
    arguments = parser.parse_args()
    deadline = time.time() + arguments.seconds
    totals = {"failed opens": 0, "keys": 0, "failed keys": 0, "stream bytes": 0}
    lock = threading.Lock()
    workers = [threading.Thread(target=worker, args=(arguments.server, arguments.token, app, deadline, totals, lock), daemon=True)
               for app in arguments.apps for _ in range(arguments.sessions)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join(arguments.seconds + 15)
    print("hostile load: " + ", ".join(f"{name} {value}" for name, value in totals.items()))


if __name__ == "__main__":
    main()
