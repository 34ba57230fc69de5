#!/usr/bin/env python3
"""The entry of the `deploys` remote micro-app: the micro-app protocol over HTTP.

It serves, below its URL:
  GET    /health                      {"status": "up"}
  POST   /sessions                    the `initialize` request; 201, Location: /sessions/ID, the answer
  GET    /sessions/ID/events          what the app sends, as server-sent events (one protocol line each)
  POST   /sessions/ID/messages        one host message (key, resize, bus.event, shutdown, exit ...)
  DELETE /sessions/ID                 ends the session

Every call but /health must carry the server's signed identity (X-TermCanvas-User, -Timestamp,
-Signature): an HMAC-SHA256 with the app's entry secret (DEPLOYS_ENTRY_SECRET, printed once by
`termcanvas apps publish`) of `TIMESTAMP.USER.METHOD PATH`. A session belongs to the user who
opened it. The builds come from the CI's webhooks (`deploys.build.finished`), which the server
delivers to each canvas and the canvas to this app's panes as `bus.event`.
"""
import argparse
import hashlib
import hmac
import json
import os
import queue
import secrets
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SECRET = os.environ.get("DEPLOYS_ENTRY_SECRET", "").encode()
SESSIONS = {}
LOCK = threading.Lock()
MAX_SESSIONS = 200
MAX_BODY = 64 * 1024


class Session:
    def __init__(self, user, size):
        self.user = user
        self.width = size.get("width", 40)
        self.height = size.get("height", 8)
        self.builds = []
        self.selected = 0
        self.revision = 0
        self.outbox = queue.Queue(maxsize=256)
        self.closed = False

    def view(self):
        self.revision += 1
        rows = [[f"#{b.get('build', '?')}", str(b.get("status", "?")), str(b.get("branch", "main")), b["at"]]
                for b in reversed(self.builds)]
        if not rows:
            body = {"type": "text", "text": "No builds yet: the CI's webhooks show here.", "role": "muted"}
        else:
            body = {"type": "table", "columns": [{"title": "Build"}, {"title": "Status"}, {"title": "Branch"}, {"title": "At"}],
                    "rows": rows, "selected": min(self.selected, len(rows) - 1)}
        passed = sum(1 for b in self.builds if b.get("status") == "passed")
        summary = f"{len(self.builds)} builds, {passed} passed · c clears"
        return {"revision": self.revision, "root": {"type": "stack", "direction": "rows", "children": [
            {"type": "text", "text": summary, "role": "heading"}, body]}}

    def send(self, message):
        message["jsonrpc"] = "2.0"
        try:
            self.outbox.put_nowait(json.dumps(message, separators=(",", ":")))
        except queue.Full:
            pass  # the host is not reading: drop, as a flooded pipe would


def forget(key):
    """Ends a session and lets it go."""
    with LOCK:
        session = SESSIONS.pop(key, None)
    if session is not None:
        session.closed = True


def signed(handler, body=b""):
    """The user the server vouches for, or None: the signature covers the time, the user, the
    method, the path and the body's SHA-256. For a while after the app's secrets are rotated, the
    server also signs with the previous secret (-Previous), so this entry works until it is
    restarted with the new one."""
    user = handler.headers.get("X-TermCanvas-User", "")
    stamp = handler.headers.get("X-TermCanvas-Timestamp", "")
    if not user or not stamp.isdigit() or abs(time.time() - int(stamp)) > 300:
        return None
    digest = hashlib.sha256(body).hexdigest()
    message = f"{stamp}.{user}.{handler.command} {handler.path}.{digest}".encode()
    expected = "sha256=" + hmac.new(SECRET, message, hashlib.sha256).hexdigest()
    signatures = [handler.headers.get(name, "") for name in ("X-TermCanvas-Signature", "X-TermCanvas-Signature-Previous")]
    return user if any(hmac.compare_digest(expected, signature) for signature in signatures) else None


class Entry(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass  # requests are not logged: they carry users' names

    def answer(self, status, body=None, headers=()):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def raw_body(self):
        """The body's bytes, or None past MAX_BODY."""
        length = int(self.headers.get("Content-Length") or 0)
        return None if length > MAX_BODY else self.rfile.read(length)

    def session(self, user):
        parts = self.path.split("/")
        with LOCK:
            found = SESSIONS.get(parts[2]) if len(parts) > 2 else None
        return found if found is not None and found.user == user else None

    def do_GET(self):
        if self.path == "/health":
            return self.answer(200, {"status": "up"})
        user = signed(self)
        if user is None:
            return self.answer(401, {"error": "unsigned"})
        session = self.session(user)
        if session is None or not self.path.endswith("/events"):
            return self.answer(404, {"error": "no such session"})
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        try:
            while not session.closed:
                try:
                    line = session.outbox.get(timeout=15)
                    self.wfile.write(f"data: {line}\n\n".encode())
                except queue.Empty:
                    self.wfile.write(b": keep-alive\n\n")
                self.wfile.flush()
        except OSError:
            pass
        finally:
            # The server forgets a session whose stream ended, without a DELETE: so does the entry.
            forget(self.path.split("/")[2])
        self.close_connection = True

    def do_POST(self):
        raw = self.raw_body()
        if raw is None:
            return self.answer(413, {"error": "too large"})
        user = signed(self, raw)
        if user is None:
            return self.answer(401, {"error": "unsigned"})
        try:
            message = json.loads(raw or b"null")
        except ValueError:
            message = None
        if not isinstance(message, dict):
            return self.answer(400, {"error": "one JSON-RPC message"})
        if self.path == "/sessions":
            return self.start(user, message)
        session = self.session(user)
        if session is None or not self.path.endswith("/messages"):
            return self.answer(404, {"error": "no such session"})
        self.handle_message(session, message)
        self.answer(202)

    def do_DELETE(self):
        user = signed(self)
        if user is None:
            return self.answer(401, {"error": "unsigned"})
        session = self.session(user)
        if session is None:
            return self.answer(404, {"error": "no such session"})
        forget(self.path.split("/")[2])
        self.answer(204)

    def start(self, user, message):
        if message.get("method") != "initialize":
            return self.answer(400, {"error": "the first message is initialize"})
        with LOCK:
            if len(SESSIONS) >= MAX_SESSIONS:
                return self.answer(503, {"error": "too many sessions"})
            key = secrets.token_urlsafe(12)
            session = SESSIONS[key] = Session(user, (message.get("params") or {}).get("size") or {})
        result = {"protocol": "1.0", "capabilities": {}, "view": session.view()}
        self.answer(201, {"jsonrpc": "2.0", "id": message.get("id"), "result": result},
                    headers=[("Location", f"/sessions/{key}")])

    def handle_message(self, session, message):
        method, params = message.get("method"), message.get("params") or {}
        if method == "key":
            key = params.get("key")
            if key == "c":
                session.builds.clear()
            elif key == "up":
                session.selected = max(0, session.selected - 1)
            elif key == "down":
                session.selected += 1
            session.send({"method": "view", "params": session.view()})
        elif method == "resize":
            session.width, session.height = params.get("width", 40), params.get("height", 8)
            session.send({"method": "view", "params": session.view()})
        elif method == "bus.event" and params.get("name") == "deploys.build.finished":
            build = params.get("payload") if isinstance(params.get("payload"), dict) else {}
            build["at"] = time.strftime("%H:%M:%S")
            session.builds = (session.builds + [build])[-50:]
            session.send({"method": "view", "params": session.view()})
        elif method == "shutdown":
            session.send({"id": message.get("id"), "result": None})
        elif method == "exit":
            session.closed = True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8471)
    arguments = parser.parse_args()
    if not SECRET:
        sys.exit("entry.py: set DEPLOYS_ENTRY_SECRET to the entry secret `termcanvas apps publish` printed")
    server = ThreadingHTTPServer((arguments.host, arguments.port), Entry)
    server.daemon_threads = True
    print(f"deploys entry on http://{arguments.host}:{arguments.port}/", file=sys.stderr)
    server.serve_forever()


if __name__ == "__main__":
    main()
