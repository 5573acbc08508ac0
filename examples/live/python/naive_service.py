#!/usr/bin/env python3
"""A naive payment service: every POST /payments is a new charge.

The provider is the one the request's X-Once-Provider header names (once
live's per-run provider, a test hook), else $ONCE_PROVIDER_URL.

The bug once live finds: a retry after a lost response charges the card
again, because nothing remembers that the first attempt was charged.

    eval "$(once live --print-env)"        # ONCE_PROVIDER_URL
    python3 naive_service.py 8000 &
    once live double-billing --semantics idem --target http://127.0.0.1:8000 --check   # exit 1

Restartable (once live --restart-cmd, see ../restart.sh): it keeps no
state, and writes its pid to $PIDFILE once it listens.

Standard library only.
"""
import json
import os
import sys
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PROVIDER = os.environ.get("ONCE_PROVIDER_URL", "http://127.0.0.1:47110")


def charge(provider, amount, key=None):
    """POST {provider}/charges; returns the provider's charge id."""
    req = urllib.request.Request(
        provider + "/charges",
        data=json.dumps({"amount": amount}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    if key:
        req.add_header("Idempotency-Key", key)
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.load(resp)["txn_id"]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, code, body, ctype="application/json"):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        if self.path != "/payments":
            self.answer(404, {"title": "Not Found", "status": 404}, "application/problem+json")
            return
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        provider = self.headers.get("X-Once-Provider") or PROVIDER  # once live's per-run provider
        try:
            amount = json.loads(body)["amount"]
        except (ValueError, KeyError):
            self.answer(400, {"title": "Bad Request", "status": 400}, "application/problem+json")
            return
        try:
            txn = charge(provider, amount)  # the bug: no key, no memory of earlier attempts
        except OSError as e:
            self.answer(502, {"title": "Bad Gateway", "status": 502, "detail": str(e)}, "application/problem+json")
            return
        self.answer(201, {"status": 201, "txn_id": txn})


def serve(port):
    """Listen (for 5 s, retry while a killed predecessor still holds the
    port), write the pid to $PIDFILE once listening, serve forever."""
    for _ in range(100):
        try:
            server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
            break
        except OSError:
            time.sleep(0.05)
    else:
        sys.exit(f"cannot listen on 127.0.0.1:{port}")
    if os.environ.get("PIDFILE"):
        with open(os.environ["PIDFILE"] + ".tmp", "w") as f:
            f.write(str(os.getpid()))
        os.replace(os.environ["PIDFILE"] + ".tmp", os.environ["PIDFILE"])
    server.serve_forever()


if __name__ == "__main__":
    serve(int(sys.argv[1]) if len(sys.argv) > 1 else 8000)
