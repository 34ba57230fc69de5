#!/usr/bin/env python3
"""Remote micro-app figures (issue 15), driven through tuiprobe's pseudo-terminal session.

The dashboard runs in a pty against a team server, with the `deploys` remote app (apps/deploys,
its entry on loopback) in a pane. Measured, each from the moment it is sent to the last screen
change it causes (tuiprobe's read-time stamps):
  webhook to screen   a signed webhook POSTed to the server -> hook queue -> the user's live
                      stream -> the canvas bus -> the app's session at its entry -> its new
                      view -> the server's proxy -> the screen;
  key round trip      Down/Up in the pane -> the server's proxy -> the entry -> its new view ->
                      the proxy -> the screen.
Usage: bench-remote.py TUIPROBE SERVER-URL HOOK-SECRET [--webhooks N] [--keys N] -- DASHBOARD-COMMAND...
(scripts/bench-remote sets it all up.)
"""
import argparse
import hashlib
import hmac
import json
import os
import statistics
import sys
import time
import urllib.request


def signed_hook(server, secret, build):
    body = json.dumps({"event": "deploys.build.finished", "data": {"build": build, "status": "passed"}}).encode()
    stamp = str(int(time.time()))
    signature = hmac.new(secret.encode(), stamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return urllib.request.Request(server + "/api/hooks/deploys", data=body, method="POST", headers={
        "Content-Type": "application/json", "X-Timestamp": stamp, "X-Signature": "sha256=" + signature})


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def report(name, seconds):
    ms = [s * 1000 for s in seconds]
    print(f"{name}: median {statistics.median(ms):.2f} ms, p95 {percentile(ms, 95):.2f} ms, "
          f"min {min(ms):.2f}, max {max(ms):.2f} ({len(ms)} samples)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tuiprobe")
    parser.add_argument("server")
    parser.add_argument("secret")
    # entry.py keeps the last 50 builds, whose count the bench waits for.
    parser.add_argument("--webhooks", type=int, default=40, choices=range(1, 51), metavar="1-50")
    parser.add_argument("--keys", type=int, default=60)
    split = sys.argv.index("--") if "--" in sys.argv else len(sys.argv)
    arguments = parser.parse_args(sys.argv[1:split])
    command = sys.argv[split + 1:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(arguments.tuiprobe)))
    import tuiprobe

    session = tuiprobe.Session(command, 120, 40, dict(os.environ), None, 120)
    try:
        def wait_for(text, seconds=10):
            if not session.pump(lambda: session.screen_has([text], []), seconds, f"waiting for {text!r}"):
                sys.exit(f"bench-remote: {text!r} never showed:\n{session.dump()}")

        def settle():
            session.pump(lambda: session.quiet_for(0.05), 2, "settling")

        wait_for("asks for permission")
        session.write(b"y")
        wait_for("No builds yet")
        settle()

        webhooks = []
        for build in range(1, arguments.webhooks + 1):
            sent = tuiprobe.now()
            with urllib.request.urlopen(signed_hook(arguments.server, arguments.secret, build), timeout=10) as answer:
                assert answer.status == 202
            wait_for(f"{build} builds, {build} passed")
            settle()
            webhooks.append(session.last_change_t - sent)
        report("webhook to screen", webhooks)

        keys = []
        for index in range(arguments.keys):
            changes = session.changes
            sent = tuiprobe.now()
            key = "Down" if index % 2 == 0 else "Up"
            session.write(tuiprobe.encode_key(key, tuiprobe.DECCKM in session.screen.mode))
            if not session.pump(lambda: session.changes > changes, 5, "waiting for the key's view"):
                sys.exit(f"bench-remote: key {index} changed nothing:\n{session.dump()}")
            settle()
            keys.append(session.last_change_t - sent)
        report("key round trip (Down/Up through the proxy and the entry)", keys)
    finally:
        session.close(quit_keys=tuiprobe.parse_keys("C-q"))


if __name__ == "__main__":
    main()
