#!/usr/bin/env python3
"""Idempotent billing consumer for `once lab at-least-once-duplicate --node consumer=...`.

Dedup by operation ID in the durable store, in this order: look the
operation up; if it is there, the record was billed already, so only
commit; if not, write the dedup row and then the billing row (the harness
commits store writes together with the effect that follows them: one
local transaction), then commit the offset. A redelivery finds the row.
Protocol: docs/lab-protocol.md. Standard library only.
"""
import json
import sys

ME = None
# Declare the optional reset capability (docs/lab-protocol.md, section 6b):
# between two runs of an explore the harness sends "reset" instead of
# starting a fresh process. Run with --no-reset to see the difference.
RESET = "--no-reset" not in sys.argv[1:]
NEXT_ID = 0


def out(dest, body):
    print(json.dumps({"src": ME, "dest": dest, "body": body}), flush=True)


def call(store, body):
    global NEXT_ID
    NEXT_ID += 1
    body["msg_id"] = NEXT_ID
    out(store, body)
    return json.loads(sys.stdin.readline())["body"]


def on_deliver(src, body):
    op = body["op"]
    seen = call("durable", {"type": "read", "key": op, "op": op})["found"]
    if not seen:
        call("durable", {"type": "write", "key": op, "op": op,
                         "record": {"state": "COMPLETED", "value": body["key"]}})
        out("billing", {"type": "effect", "op": op, "value": body["payload"]})
    out(src, {"type": "commit", "op": op, "attempt": body["attempt"], "key": body["key"]})


def main():
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
        elif body["type"] == "deliver":
            on_deliver(msg["src"], body)
        done = {"type": "done", "in_reply_to": body["msg_id"]}
        if body["type"] == "init" and RESET:
            done["capabilities"] = ["reset"]
        out("harness", done)


if __name__ == "__main__":
    main()
