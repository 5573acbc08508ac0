#!/usr/bin/env python3
"""Idempotent payment service for `once lab double-billing --node service=...`.

The Idempotency-Key protocol, in this order:
  1. insert the key as PROCESSING if it is absent, in one atomic step
     (insert_if_absent), or get the row that is there;
  2. COMPLETED: answer the stored response (same transaction id);
     PROCESSING: answer 409, the client retries later;
  3. inserted: call the gateway with the same key (the row is durable
     before the call);
  4. when the charge returns, store the response (COMPLETED), then reply.
After a crash (init with incarnation > 1) every key left PROCESSING is
claimed (one replica per key, with --replicas) and resolved by asking the
gateway by that key (lookup), never by charging again blindly. Process memory is lost in a crash: everything that must
survive lives in the harness's durable store.
Protocol: docs/lab-protocol.md. Standard library only.
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
    # One atomic step creates the key's row, or returns the row that is
    # there: no other request can slip between a check and an insert.
    # PROCESSING is durable before the gateway is called; value keeps the body.
    won = call("durable", {"type": "insert_if_absent", "key": key, "op": op,
                           "record": {"state": "PROCESSING", "value": body["payload"], "aux": op}})
    row = None if won["inserted"] else won["record"]
    if row is not None and body["payload"] != fingerprint(row):
        reply(body, 422, 0)  # the key of another request: refuse, change nothing
    elif row is not None and row.get("state") == "COMPLETED":
        reply(body, row["status"], row.get("value", 0))  # the stored response
    elif row is not None:
        reply(body, 409, 0)  # still PROCESSING: the client will retry
    else:
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


def recover(incarnation):
    """After a crash: ask the gateway about every key left PROCESSING.

    With --replicas N every replica restarts and runs this at once: each
    key is first claimed for this incarnation (status = incarnation, in one
    compare_and_set), and only the replica whose claim swapped looks it up,
    so a key never charged is charged once, not once per replica.
    """
    keys = call("durable", {"type": "list"})["keys"]
    for key in keys:  # sorted by the harness
        row = read(key, 0)
        if row is None or row.get("state") != "PROCESSING" or row.get("status") == incarnation:
            continue  # done, or claimed by another replica of this incarnation
        claimed = dict(row, status=incarnation)
        won = call("durable", {"type": "compare_and_set", "key": key, "op": row["aux"],
                               "expected": row, "record": claimed})
        if won["swapped"]:  # else another replica claimed it between the read and the swap
            out("gateway", {"type": "lookup", "op": row["aux"], "key": key, "payload": row.get("value", 0)})


def serve(handle, on_init=None):
    """The protocol loop, for this service and the other starters that import
    it: each line a message; init names this node (then on_init(body), if
    given), reset forgets everything, every other message goes to
    handle(src, body); each is answered done (init with the reset
    capability, unless --no-reset)."""
    global ME, NEXT_ID
    for line in iter(sys.stdin.readline, ""):
        msg = json.loads(line)
        body = msg["body"]
        if body["type"] == "reset":  # forget everything: the next line is an init
            out("harness", {"type": "done", "in_reply_to": body["msg_id"]})
            ME, NEXT_ID = None, 0
            continue
        if body["type"] == "init":
            ME = body["node_id"]
            if on_init is not None:
                on_init(body)
        else:
            handle(msg["src"], body)
        done = {"type": "done", "in_reply_to": body["msg_id"]}
        if body["type"] == "init" and RESET:
            done["capabilities"] = ["reset"]
        out("harness", done)


def on_init(body):
    print(f"init: incarnation {body['incarnation']}", file=sys.stderr)
    if body["incarnation"] > 1:
        recover(body["incarnation"])


def handle(src, body):
    t = body["type"]
    if t == "pay":
        on_pay(body)
    elif t == "charge-result":
        complete(body, answer=True)
    elif t == "lookup-result":
        on_lookup_result(body)


def main():
    serve(handle, on_init)


if __name__ == "__main__":
    main()
