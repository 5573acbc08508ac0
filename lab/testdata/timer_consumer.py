# Bills each record at once and commits it 50ms later, from a timer. A
# second timer is set and cancelled at once: if it ever fires, the node
# exits with status 4.
import json, sys
me = None
pending = {}  # timer_id -> the commit to send (process memory: lost in a crash)
for line in iter(sys.stdin.readline, ""):
    msg = json.loads(line)
    b = msg["body"]
    def out(dest, body):
        print(json.dumps({"src": me, "dest": dest, "body": body}), flush=True)
    if b["type"] == "init":
        me = b["node_id"]
    elif b["type"] == "deliver":
        out("billing", {"type": "effect", "op": b["op"], "value": b["payload"]})
        tid = 2 * b["op"]
        pending[tid] = (msg["src"], {"type": "commit", "op": b["op"], "attempt": b["attempt"], "key": b["key"]})
        out("harness", {"type": "set_timer", "name": "retry", "after": 50, "timer_id": tid, "op": b["op"]})
        out("harness", {"type": "set_timer", "name": "retry", "after": 10, "timer_id": tid + 1})
        out("harness", {"type": "cancel_timer", "timer_id": tid + 1})
    elif b["type"] == "timer":
        if b["timer_id"] % 2 == 1 or b["name"] != "retry":
            print("a cancelled timer fired: %r" % b, file=sys.stderr)
            sys.exit(4)
        dest, commit = pending.pop(b["timer_id"])
        out(dest, commit)
    out("harness", {"type": "done", "in_reply_to": b["msg_id"]})
