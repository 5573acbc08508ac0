# Bills each record with a value drawn from the operating system's random
# source: the same event is answered differently in two runs.
import json, os, sys
me = None
for line in iter(sys.stdin.readline, ""):
    msg = json.loads(line)
    b = msg["body"]
    if b["type"] == "init":
        me = b["node_id"]
    elif b["type"] == "deliver":
        print(json.dumps({"src": me, "dest": "billing", "body": {"type": "effect", "op": b["op"], "value": int.from_bytes(os.urandom(4), "big")}}), flush=True)
        print(json.dumps({"src": me, "dest": msg["src"], "body": {"type": "commit", "op": b["op"], "attempt": b["attempt"], "key": b["key"]}}), flush=True)
    print(json.dumps({"src": me, "dest": "harness", "body": {"type": "done", "in_reply_to": b["msg_id"]}}), flush=True)
