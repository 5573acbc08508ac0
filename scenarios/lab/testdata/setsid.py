# Starts a grandchild in a session of its own (it leaves the node's
# process group, as a daemon would), then answers every event with done.
import json, subprocess, sys
first = True
for line in sys.stdin:
    body = json.loads(line)["body"]
    if first:
        me = body["node_id"]
        subprocess.Popen(["sleep", "300"], start_new_session=True)
        first = False
    print(json.dumps({"src": me, "dest": "harness", "body": {"type": "done", "in_reply_to": body["msg_id"]}}), flush=True)
