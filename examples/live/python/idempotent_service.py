#!/usr/bin/env python3
"""An idempotent payment service: the Idempotency-Key pattern over sqlite3.

POST /payments with an Idempotency-Key header:
  - no key: 400;
  - INSERT the key as PROCESSING under a unique constraint *before* the
    provider is called; a key already there answers 422 when the body
    differs, 409 while PROCESSING, the stored response when COMPLETED
    (with Idempotent-Replayed: true);
  - the provider is charged with the same key;
  - the response is stored (COMPLETED) before it is sent;
  - at start, every key a crash left PROCESSING is resolved by asking the
    provider by the key (charged: the response is stored; not charged: the
    charge is made now, with the key) before the service listens.

The provider is the one the request's X-Once-Provider header names (once
live's per-run provider, a test hook), else $ONCE_PROVIDER_URL; the
recovery at start asks $ONCE_PROVIDER_URL.

Restartable (once live --restart-cmd, see ../restart.sh): the keys live in
$KEYS_DB (else in a temporary directory removed at exit) and the pid is written to
$PIDFILE once the service listens.

    eval "$(once live --print-env)"
    python3 idempotent_service.py 8001 &
    once live double-billing --semantics idem --target http://127.0.0.1:8001 --check   # exit 0

Standard library only.
"""
import atexit
import hashlib
import json
import os
import shutil
import signal
import sqlite3
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PROVIDER = os.environ.get("ONCE_PROVIDER_URL", "http://127.0.0.1:47110")


def keys_db():
    """$KEYS_DB, or a file in a temporary directory removed at exit."""
    if os.environ.get("KEYS_DB"):
        return os.environ["KEYS_DB"]
    tmp = tempfile.mkdtemp(prefix="idem-")
    atexit.register(shutil.rmtree, tmp, True)
    return os.path.join(tmp, "keys.db")


DB = keys_db()
LOCK = threading.Lock()  # one writer at a time: sqlite3 connections are per thread

with sqlite3.connect(DB) as db:
    db.execute(
        "CREATE TABLE IF NOT EXISTS idempotency_keys ("
        " key TEXT PRIMARY KEY, request_hash TEXT NOT NULL, status TEXT NOT NULL,"
        " amount INTEGER, response_code INTEGER, response_body TEXT)"
    )


def sql(query, *args):
    with LOCK, sqlite3.connect(DB) as db:
        cur = db.execute(query, args)
        return cur.fetchone(), cur.rowcount


def charge(provider, amount, key):
    req = urllib.request.Request(
        provider + "/charges",
        data=json.dumps({"amount": amount}).encode(),
        headers={"Content-Type": "application/json", "Idempotency-Key": key},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.load(resp)["txn_id"]


def lookup(key):
    """The provider's charge under key, or None: 404 not charged, 501 no lookup."""
    url = PROVIDER + "/charges/lookup?" + urllib.parse.urlencode({"key": key})
    try:
        with urllib.request.urlopen(url, timeout=30) as resp:
            return json.load(resp)["txn_id"]
    except urllib.error.HTTPError as e:
        if e.code in (404, 501):
            return None
        raise


def recover():
    """Resolve every key a crash left PROCESSING, before listening."""
    with LOCK, sqlite3.connect(DB) as db:
        rows = db.execute("SELECT key, amount FROM idempotency_keys WHERE status = 'PROCESSING'").fetchall()
    for key, amount in rows:
        try:
            txn = lookup(key)
            if txn is None:
                txn = charge(PROVIDER, amount, key)
        except OSError:
            continue  # stays PROCESSING (409) until the next start resolves it
        response = json.dumps({"status": 201, "txn_id": txn})
        sql("UPDATE idempotency_keys SET status = 'COMPLETED', response_code = 201, response_body = ? WHERE key = ?", response, key)


def problem(code, title, detail):
    return code, json.dumps({"type": "about:blank", "title": title, "status": code, "detail": detail}), "application/problem+json"


def pay(provider, key, body):
    if not key:
        return problem(400, "Bad Request", "the Idempotency-Key header is required")
    if len(key) > 255:
        return problem(400, "Bad Request", "the Idempotency-Key is longer than 255 characters")
    digest = hashlib.sha256(body).hexdigest()
    try:
        amount = json.loads(body)["amount"]
    except (ValueError, KeyError):
        return problem(400, "Bad Request", "the body is not a payment")
    _, inserted = sql(
        "INSERT INTO idempotency_keys (key, request_hash, status, amount) VALUES (?, ?, 'PROCESSING', ?) ON CONFLICT (key) DO NOTHING",
        key, digest, amount,
    )
    if inserted != 1:
        row, _ = sql("SELECT request_hash, status, response_code, response_body FROM idempotency_keys WHERE key = ?", key)
        if row[0] != digest:
            return problem(422, "Unprocessable Content", "this Idempotency-Key was used with another request")
        if row[1] == "PROCESSING":
            return problem(409, "Conflict", "a request with this Idempotency-Key is in flight")
        return row[2], row[3], "replayed"
    try:
        txn = charge(provider, amount, key)
    except OSError as e:
        sql("DELETE FROM idempotency_keys WHERE key = ? AND status = 'PROCESSING'", key)  # let a retry try again
        return problem(502, "Bad Gateway", str(e))
    response = json.dumps({"status": 201, "txn_id": txn})
    sql("UPDATE idempotency_keys SET status = 'COMPLETED', response_code = 201, response_body = ? WHERE key = ?", response, key)
    return 201, response, "application/json"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path != "/payments":
            code, data, ctype = problem(404, "Not Found", "POST /payments is the endpoint")
        else:
            provider = self.headers.get("X-Once-Provider") or PROVIDER  # once live's per-run provider
            code, data, ctype = pay(provider, self.headers.get("Idempotency-Key"), body)
        data = data.encode()
        self.send_response(code)
        if ctype == "replayed":
            self.send_header("Idempotent-Replayed", "true")
            ctype = "application/json"
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def serve(port):
    """Listen (for 5 s, retry while a killed predecessor still holds the
    port), write the pid to $PIDFILE once listening, serve until SIGTERM
    or SIGINT (then the temporary directory, if any, is removed)."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
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
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    recover()
    serve(int(sys.argv[1]) if len(sys.argv) > 1 else 8001)
