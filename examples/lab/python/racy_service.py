#!/usr/bin/env python3
"""A payment service with a race, for `once lab concurrent-same-key`.

It is the idempotent service of this folder with one change: it creates
the key's row by *check, then insert* — a read, and if no row is there, a
plain write — instead of one atomic insert_if_absent. Alone, one request
at a time, it is correct. With two replicas (a double click reaching two
instances behind a balancer), a preemption after the read lets the other
request read the same empty key: both insert, both charge.
`once lab concurrent-same-key --node service="python3 racy_service.py" --explore`
finds it with one preemption. Protocol: docs/lab-protocol.md.
"""
import json
import sys

ME = None
# Declare the optional reset capability (docs/lab-protocol.md, section 6b):
# between two runs of an explore the harness sends "reset" instead of
# starting a fresh process. Run with --no-reset to see the difference.
RESET = "--no-reset" not in sys.argv[1:]
NEXT_ID = 0  # msg_id of our store requests


def out(dest, body):
    print(json.dumps({"src": ME, "dest": dest, "body": body}), flush=True)


def call(store, body):
    """A request to the durable or volatile store; its answer is the next line."""
    global NEXT_ID
    NEXT_ID += 1
    body["msg_id"] = NEXT_ID
    out(store, body)
    reply = json.loads(sys.stdin.readline())["body"]
    assert reply["in_reply_to"] == NEXT_ID, reply
    return reply


def read(key, op):
    r = call("durable", {"type": "read", "key": key, "op": op})
    return r["record"] if r["found"] else None


def write(key, op, record):
    call("durable", {"type": "write", "key": key, "op": op, "record": record})


def reply(body, status, value):
    out("client", {"type": "pay-response", "op": body["op"], "attempt": body["attempt"],
                   "status": status, "value": value})


def charge(op, attempt, key, payload):
    out("gateway", {"type": "charge", "op": op, "attempt": attempt, "key": key, "payload": payload})


def on_pay(body):
    key, op = body["key"], body["op"]
    if key == 0:  # no Idempotency-Key (the at-least-once client): nothing to dedup by
        charge(op, body["attempt"], 0, body["payload"])
        return
    row = read(key, op)
    if row is not None and body["payload"] != fingerprint(row):
        reply(body, 422, 0)  # the key of another request: refuse, change nothing
    elif row is not None and row.get("state") == "COMPLETED":
        reply(body, row["status"], row.get("value", 0))  # the stored response
    elif row is not None:
        reply(body, 409, 0)  # still PROCESSING: the client will retry
    else:
        # PROCESSING is durable before the gateway is called; value keeps the body.
        write(key, op, {"state": "PROCESSING", "value": body["payload"], "aux": op})
        charge(op, body["attempt"], key, body["payload"])


def fingerprint(row):
    """The body a key's row was created for: value while PROCESSING (aux
    holds the op, for recovery), aux once COMPLETED (value is the
    transaction id)."""
    return row.get("aux", 0) if row.get("state") == "COMPLETED" else row.get("value", 0)


def complete(body, answer):
    key, op = body["key"], body["op"]
    row = read(key, op)
    if row is None or row.get("state") != "COMPLETED":
        row = {"state": "COMPLETED", "status": 201, "value": body["value"], "aux": body["payload"]}
        write(key, op, row)
    if answer:
        reply(body, row["status"], row["value"])


def on_lookup_result(body):
    key, op = body["key"], body["op"]
    row = read(key, op)
    if row is None or row.get("state") != "PROCESSING":
        return  # resolved already
    if body["status"] == 200:
        complete(body, answer=False)  # charged before the crash: record it, charge nothing
    else:
        charge(op, 0, key, row.get("value", 0))  # never charged: charge now, same key


def recover():
    """After a crash: ask the gateway about every key left PROCESSING."""
    keys = call("durable", {"type": "list"})["keys"]
    for key in keys:  # sorted by the harness
        row = read(key, 0)
        if row is not None and row.get("state") == "PROCESSING":
            out("gateway", {"type": "lookup", "op": row["aux"], "key": key, "payload": row.get("value", 0)})


def main():
    global ME, NEXT_ID
    for line in iter(sys.stdin.readline, ""):
        msg = json.loads(line)
        body = msg["body"]
        if body["type"] == "reset":  # forget everything: the next line is an init
            out("harness", {"type": "done", "in_reply_to": body["msg_id"]})
            ME, NEXT_ID = None, 0
            continue
        t = body["type"]
        if t == "init":
            ME = body["node_id"]
            print(f"init: incarnation {body['incarnation']}", file=sys.stderr)
            if body["incarnation"] > 1:
                recover()
        elif t == "pay":
            on_pay(body)
        elif t == "charge-result":
            complete(body, answer=True)
        elif t == "lookup-result":
            on_lookup_result(body)
        done = {"type": "done", "in_reply_to": body["msg_id"]}
        if body["type"] == "init" and RESET:
            done["capabilities"] = ["reset"]
        out("harness", done)


if __name__ == "__main__":
    main()
