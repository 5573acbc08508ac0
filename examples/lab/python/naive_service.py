#!/usr/bin/env python3
"""Naive payment service for `once lab double-billing --node service=...`.

It charges the card for every POST /payments it receives and answers with
the transaction id. A lost response makes the client retry, and the retry
is charged again: run it with --check and see the duplicated payment.
Protocol: docs/lab-protocol.md. Standard library only.
"""
import json
import sys

ME = None  # this node's id, from init
# Declare the optional reset capability (docs/lab-protocol.md, section 6b):
# between two runs of an explore the harness sends "reset" instead of
# starting a fresh process. Run with --no-reset to see the difference.
RESET = "--no-reset" not in sys.argv[1:]


def out(dest, body):
    """Write one line to the harness (an action, or done)."""
    print(json.dumps({"src": ME, "dest": dest, "body": body}), flush=True)


def handle(src, body):
    t = body["type"]
    if t == "pay":
        # POST /payments: charge the card at the gateway, key and body passed on.
        out("gateway", {"type": "charge", "op": body["op"], "attempt": body["attempt"],
                        "key": body["key"], "payload": body["payload"]})
    elif t == "charge-result":
        # The gateway charged: answer the client with 201 and the transaction id.
        out("client", {"type": "pay-response", "op": body["op"], "attempt": body["attempt"],
                       "status": 201, "value": body["value"]})


def main():
    global ME
    for line in iter(sys.stdin.readline, ""):
        msg = json.loads(line)
        body = msg["body"]
        if body["type"] == "reset":  # forget everything: the next line is an init
            out("harness", {"type": "done", "in_reply_to": body["msg_id"]})
            ME = None
            continue
        if body["type"] == "init":
            ME = body["node_id"]
            print(f"init: incarnation {body['incarnation']}", file=sys.stderr)
        else:
            handle(msg["src"], body)
        done = {"type": "done", "in_reply_to": body["msg_id"]}
        if body["type"] == "init" and RESET:
            done["capabilities"] = ["reset"]
        out("harness", done)


if __name__ == "__main__":
    main()
