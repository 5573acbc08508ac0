#!/usr/bin/env python3
"""Naive billing consumer for `once lab at-least-once-duplicate --node consumer=...`.

It writes the billing row (an effect on the billing sink) for every record
delivered, then commits the offset. A crash between the two, or a lost
commit, makes the broker redeliver, and the record is billed twice.
Protocol: docs/lab-protocol.md. Standard library only.
"""
import json
import sys

ME = None
# Declare the optional reset capability (docs/lab-protocol.md, section 6b):
# between two runs of an explore the harness sends "reset" instead of
# starting a fresh process. Run with --no-reset to see the difference.
RESET = "--no-reset" not in sys.argv[1:]


def out(dest, body):
    print(json.dumps({"src": ME, "dest": dest, "body": body}), flush=True)


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
        elif body["type"] == "deliver":
            out("billing", {"type": "effect", "op": body["op"], "value": body["payload"]})
            out(msg["src"], {"type": "commit", "op": body["op"], "attempt": body["attempt"], "key": body["key"]})
        done = {"type": "done", "in_reply_to": body["msg_id"]}
        if body["type"] == "init" and RESET:
            done["capabilities"] = ["reset"]
        out("harness", done)


if __name__ == "__main__":
    main()
