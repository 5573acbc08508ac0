#!/usr/bin/env python3
"""Idempotent billing consumer for `once lab at-least-once-duplicate --node consumer=...`.

Dedup by operation ID in the durable store, in this order: look the
operation up; if it is there, the record was billed already, so only
commit; if not, write the dedup row and then the billing row (the harness
commits store writes together with the effect that follows them: one
local transaction), then commit the offset. A redelivery finds the row.
Protocol: docs/lab-protocol.md; the loop that speaks it is
idempotent_service.py's, imported. Standard library only.
"""
from idempotent_service import call, out, serve  # the protocol loop and the store calls


def on_deliver(src, body):
    op = body["op"]
    seen = call("durable", {"type": "read", "key": op, "op": op})["found"]
    if not seen:
        call("durable", {"type": "write", "key": op, "op": op,
                         "record": {"state": "COMPLETED", "value": body["key"]}})
        out("billing", {"type": "effect", "op": op, "value": body["payload"]})
    out(src, {"type": "commit", "op": op, "attempt": body["attempt"], "key": body["key"]})


def handle(src, body):
    if body["type"] == "deliver":
        on_deliver(src, body)


if __name__ == "__main__":
    serve(handle)
