# Sets a thousand zero-delay timers at every event: the engine's queue
# would grow without end.
import json, sys
for line in sys.stdin:
    body = json.loads(line)["body"]
    if body["type"] == "init":
        me = body["node_id"]
    for i in range(1000):
        print(json.dumps({"src": me, "dest": "harness", "body": {"type": "set_timer", "name": "retry", "after": 0}}), flush=False)
    print(json.dumps({"src": me, "dest": "harness", "body": {"type": "done", "in_reply_to": body["msg_id"]}}), flush=True)
