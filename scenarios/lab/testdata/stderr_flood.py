# Writes 20 MB on stderr at every event, and answers done.
import json, sys
chunk = "x" * (1 << 20) + "\n"
for line in sys.stdin:
    body = json.loads(line)["body"]
    if body["type"] == "init":
        me = body["node_id"]
    for i in range(20):
        sys.stderr.write(chunk)
    sys.stderr.flush()
    print(json.dumps({"src": me, "dest": "harness", "body": {"type": "done", "in_reply_to": body["msg_id"]}}), flush=True)
