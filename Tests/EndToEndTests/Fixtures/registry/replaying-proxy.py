"""A proxy in front of a team server that keeps its first answer at one path and, once told to,
serves that answer again instead of asking: an answer replayed from before, as a stale mirror, a
cache or someone on the way would serve it.

    replaying-proxy.py PORT UPSTREAM PATH KEPT REPLAY

PORT: where it listens (loopback); UPSTREAM: the server (http://127.0.0.1:N); PATH: the path whose
first GET answer is kept in the file KEPT; REPLAY: a file whose existence makes it replay."""
import base64, json, os, sys, urllib.error, urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT, UPSTREAM, PATH, KEPT, REPLAY = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "server", "date"}


class Proxy(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, headers, body):
        self.send_response(status)
        for name, value in headers:
            if name.lower() not in HOP:
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def forward(self):
        if self.command == "GET" and self.path == PATH and os.path.exists(REPLAY):
            kept = json.load(open(KEPT))
            return self.answer(kept["status"], kept["headers"], base64.b64decode(kept["body"]))
        length = int(self.headers.get("Content-Length") or 0)
        request = urllib.request.Request(UPSTREAM + self.path, data=self.rfile.read(length) if length else None, method=self.command,
                                         headers={k: v for k, v in self.headers.items() if k.lower() not in HOP and k.lower() != "host"})
        try:
            response = urllib.request.urlopen(request, timeout=30)
        except urllib.error.HTTPError as error:
            response = error
        status, headers, body = response.status, list(response.headers.items()), response.read()
        if self.command == "GET" and self.path == PATH and status == 200 and not os.path.exists(KEPT):
            json.dump({"status": status, "headers": headers, "body": base64.b64encode(body).decode()}, open(KEPT, "w"))
        self.answer(status, headers, body)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = forward


ThreadingHTTPServer(("127.0.0.1", PORT), Proxy).serve_forever()
