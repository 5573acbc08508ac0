#!/usr/bin/env python3
"""A careful payment service: Brandur Leach's idempotency keys over sqlite3.

POST /payments with an Idempotency-Key header and {"amount": N}:
  - no key, a key longer than 255 characters, a body that is not a
    payment: 400;
  - the request's fingerprint (a hash of the path and the amount) is
    stored with the key; a key already there with another fingerprint
    answers 422;
  - the key is claimed atomically: INSERT ... ON CONFLICT DO NOTHING, with
    a lease (locked_at); a key whose lease is held answers 409 (in
    flight); a key whose lease ran out (its holder died, or gave up) is
    taken over by one request, a compare-and-set UPDATE;
  - recovery points: started -> charge_created (the provider's charge id
    stored) -> finished (the response stored); a request that takes a key
    over resumes from its recovery point, and at "started" asks the
    provider by the key (GET /charges/lookup) before charging again;
  - the lease (30 s) is longer than the provider call's timeout (10 s):
    no request takes a key over while its holder's charge may still land;
  - the lease is counted on the run's clock when once live drives the
    service (X-Once-Now, the run's clock in scenario milliseconds, which
    docs/live.md says a service may read), else on the wall clock: under
    once live --tick 0.1 a 30 s lease runs out in 3 s of real time;
  - a failed provider call releases the lease, so the next retry takes
    over at once (and looks up before it charges);
  - at start, before it listens, every key a crash left unfinished is
    recovered the same way.

The provider is the one the request's X-Once-Provider header names (once
live's per-run provider), else $ONCE_PROVIDER_URL.

Restartable (once live --restart-cmd, see ../restart.sh): the keys live in
$KEYS_DB (else in a temporary directory removed at exit) and the pid is
written to $PIDFILE once the service listens.

    python3 careful_service.py 8002 &
    once live --suite payments --target http://127.0.0.1:8002 --provider-addr 127.0.0.1:0   # every row held

bugs/plant.py runs this file with one line changed: the four bugs once
live --suite payments catches (bugs/README.md).

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
PROVIDER_TIMEOUT = 10.0  # seconds a provider call may take
LEASE = 30.0  # seconds a claimed key stays locked: longer than PROVIDER_TIMEOUT
LOCK = threading.Lock()  # one statement at a time: sqlite3 connections are per thread


def keys_db():
    """$KEYS_DB, or a file in a temporary directory removed at exit."""
    if os.environ.get("KEYS_DB"):
        return os.environ["KEYS_DB"]
    tmp = tempfile.mkdtemp(prefix="careful-")
    atexit.register(shutil.rmtree, tmp, True)
    return os.path.join(tmp, "keys.db")


DB = keys_db()

with sqlite3.connect(DB) as db:
    db.execute(
        "CREATE TABLE IF NOT EXISTS idempotency_keys ("
        " key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, amount INTEGER NOT NULL,"
        " recovery_point TEXT NOT NULL, locked_at REAL, txn_id INTEGER,"
        " response_code INTEGER, response_body TEXT)"
    )


def sql(query, *args):
    """Runs one statement; returns its first row and its row count."""
    with LOCK, sqlite3.connect(DB) as db:
        cur = db.execute(query, args)
        return cur.fetchone(), cur.rowcount


def charge(provider, amount, key):
    """POST {provider}/charges with the key; the provider's charge id."""
    req = urllib.request.Request(
        provider + "/charges",
        data=json.dumps({"amount": amount}).encode(),
        headers={"Content-Type": "application/json", "Idempotency-Key": key},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=PROVIDER_TIMEOUT) as resp:
        return json.load(resp)["txn_id"]


def lookup(provider, key):
    """The provider's charge under key, or None: 404 not charged, 501 no lookup."""
    url = provider + "/charges/lookup?" + urllib.parse.urlencode({"key": key})
    try:
        with urllib.request.urlopen(url, timeout=PROVIDER_TIMEOUT) as resp:
            return json.load(resp)["txn_id"]
    except urllib.error.HTTPError as e:
        if e.code in (404, 501):
            return None
        raise


def advance(provider, key, amount, point, fresh):
    """Runs the key from its recovery point to finished; the response.
    fresh: this request inserted the key, so nothing was charged yet."""
    if point == "started":
        txn = None if fresh else lookup(provider, key)  # a holder before us may have charged
        if txn is None:
            txn = charge(provider, amount, key)
        sql("UPDATE idempotency_keys SET recovery_point = 'charge_created', txn_id = ? WHERE key = ?", txn, key)
    row, _ = sql("SELECT txn_id FROM idempotency_keys WHERE key = ?", key)
    response = json.dumps({"status": 201, "txn_id": row[0]})
    sql(
        "UPDATE idempotency_keys SET recovery_point = 'finished', response_code = 201, response_body = ?, locked_at = NULL WHERE key = ?",
        response, key,
    )
    return 201, response, "application/json"


def recover():
    """Finish every key a crash left unfinished, before listening."""
    with LOCK, sqlite3.connect(DB) as db:
        rows = db.execute("SELECT key, amount, recovery_point FROM idempotency_keys WHERE recovery_point != 'finished'").fetchall()
    for key, amount, point in rows:
        try:
            advance(PROVIDER, key, amount, point, False)
        except OSError:
            continue  # the provider cannot be asked now: a retry takes the key over when its lease runs out


def clock(headers):
    """Now, in seconds: the run's clock (X-Once-Now, scenario milliseconds)
    when once live sends it, else the wall clock."""
    now = headers.get("X-Once-Now")
    return int(now) / 1000 if now else time.time()


def problem(code, title, detail):
    return code, json.dumps({"type": "about:blank", "title": title, "status": code, "detail": detail}), "application/problem+json"


def pay(provider, key, body, now):
    if not key or len(key) > 255:
        return problem(400, "Bad Request", "the Idempotency-Key header is required, 1 to 255 characters")
    try:
        amount = json.loads(body)["amount"]
    except (ValueError, KeyError, TypeError):
        return problem(400, "Bad Request", "the body is not a payment")
    fingerprint = hashlib.sha256(json.dumps({"path": "/payments", "amount": amount}).encode()).hexdigest()
    _, inserted = sql(
        "INSERT INTO idempotency_keys (key, fingerprint, amount, recovery_point, locked_at) VALUES (?, ?, ?, 'started', ?)"
        " ON CONFLICT (key) DO NOTHING",
        key, fingerprint, amount, now,
    )
    fresh = inserted == 1
    if not fresh:
        row, _ = sql("SELECT fingerprint, recovery_point, response_code, response_body FROM idempotency_keys WHERE key = ?", key)
        if row[0] != fingerprint:
            return problem(422, "Unprocessable Content", "this Idempotency-Key was used with another request")
        if row[1] == "finished":
            return row[2], row[3], "replayed"
        _, taken = sql(
            "UPDATE idempotency_keys SET locked_at = ? WHERE key = ? AND recovery_point != 'finished'"
            " AND (locked_at IS NULL OR locked_at <= ?)",
            now, key, now - LEASE,
        )
        if taken != 1:
            return problem(409, "Conflict", "a request with this Idempotency-Key is in flight")
    point, _ = sql("SELECT recovery_point FROM idempotency_keys WHERE key = ?", key)
    try:
        return advance(provider, key, amount, point[0], fresh)
    except OSError as e:
        sql("UPDATE idempotency_keys SET locked_at = NULL WHERE key = ? AND recovery_point != 'finished'", key)  # the next retry takes over
        return problem(502, "Bad Gateway", str(e))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.reply(*problem(404, "Not Found", "POST /payments is the endpoint"))

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path != "/payments":
            self.reply(*problem(404, "Not Found", "POST /payments is the endpoint"))
            return
        provider = self.headers.get("X-Once-Provider") or PROVIDER  # once live's per-run provider
        self.reply(*pay(provider, self.headers.get("Idempotency-Key"), body, clock(self.headers)))

    def reply(self, code, data, ctype):
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
    serve(int(sys.argv[1]) if len(sys.argv) > 1 else 8002)
