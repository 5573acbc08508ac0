# Answers init with done, spelling in_reply_to wrong.
import json, sys
body = json.loads(sys.stdin.readline())["body"]
print(json.dumps({"src": body["node_id"], "dest": "harness", "body": {"type": "done", "in_replyto": body["msg_id"]}}), flush=True)
sys.stdin.readline()
