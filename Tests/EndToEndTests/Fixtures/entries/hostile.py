#!/usr/bin/env python3
"""A remote micro-app entry that misbehaves, for the proxy's and the dashboard's sake.

  --mode hang      accepts every connection and never answers, /health included
  --mode flood     opens sessions, then streams views as fast as the socket takes them, with a
                   2 MiB line now and then
  --mode garbage   opens sessions, then streams bytes that are not the protocol: invalid UTF-8,
                   lines that are not JSON, control characters, lines without `data:`
  --mode escapes   speaks the protocol, with terminal escape sequences in every string it sends

It checks no signature: it is the entry an attacker runs, not one that guards users' data.
Usage: hostile.py --mode MODE --port PORT
"""
import argparse
import itertools
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

EVIL = "\x1b]0;pwned\x07\x1b[2J\x1b[31mRED\x1b[0m\x9b1;1H\u202eevil\x07"
SESSIONS = itertools.count(1)


def view(revision, mode):
    if mode == "escapes":
        root = {"type": "stack", "children": [
            {"type": "text", "text": "T" + EVIL, "size": 1},
            {"type": "table", "columns": ["C" + EVIL], "rows": [["R" + EVIL]], "size": 2},
            {"type": "kv", "items": [["K" + EVIL, "V" + EVIL]], "size": 1},
        ]}
    else:
        root = {"type": "text", "text": f"{mode} view {revision} " + ("x" * 4000 if mode == "flood" else "")}
    return {"revision": revision, "root": root}


class Entry(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    mode = "hang"

    def log_message(self, *args):
        pass

    def hang(self):
        while True:
            time.sleep(3600)

    def send_json(self, status, body=None, headers=()):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.mode == "hang":
            return self.hang()
        if self.path == "/health":
            return self.send_json(200, {"status": "up"})
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        self.close_connection = True
        try:
            if self.mode == "flood":
                for revision in itertools.count(2):
                    line = json.dumps({"jsonrpc": "2.0", "method": "view", "params": view(revision, "flood")})
                    self.wfile.write(f"data: {line}\n\n".encode())
                    if revision % 50 == 0:
                        self.wfile.write(b"data: " + b"y" * (2 << 20) + b"\n\n")
            elif self.mode == "garbage":
                while True:
                    self.wfile.write(b"data: \xff\xfe{not json\x1b[2J\x00\n\n" + os.urandom(512) + b"\n\ndata: [1,2\n\n")
                    self.wfile.flush()
                    time.sleep(0.05)
            else:
                while True:
                    self.wfile.write(b": still here\n\n")
                    self.wfile.flush()
                    time.sleep(10)
        except OSError:
            pass

    def do_POST(self):
        if self.mode == "hang":
            return self.hang()
        length = int(self.headers.get("Content-Length") or 0)
        message = json.loads(self.rfile.read(length) or b"{}")
        if self.path == "/sessions":
            result = {"protocol": "1.0", "capabilities": {}, "view": view(1, self.mode)}
            return self.send_json(201, {"jsonrpc": "2.0", "id": message.get("id"), "result": result},
                                  headers=[("Location", f"/sessions/s{next(SESSIONS)}")])
        self.send_json(202)

    def do_DELETE(self):
        if self.mode == "hang":
            return self.hang()
        self.send_json(204)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["hang", "flood", "garbage", "escapes"], required=True)
    parser.add_argument("--port", type=int, required=True)
    arguments = parser.parse_args()
    Entry.mode = arguments.mode
    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Entry)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
