# Written from docs/lab-protocol.md alone, as a check that the document is
# enough: a consumer that remembers processed offsets in the *volatile*
# store. It is right until the node crashes — then the memory is gone and
# a redelivery is billed again, which --explore must find.
import json
import sys

node = None
counter = 0


def emit(dest, body):
    sys.stdout.write(json.dumps({"src": node, "dest": dest, "body": body}) + "\n")
    sys.stdout.flush()


def ask(dest, body):
    global counter
    counter += 1
    body["msg_id"] = counter
    emit(dest, body)
    answer = json.loads(sys.stdin.readline())
    if answer["body"].get("in_reply_to") != counter:
        raise SystemExit("answer out of order: %r" % answer)
    return answer["body"]


while True:
    line = sys.stdin.readline()
    if not line:
        break
    event = json.loads(line)
    body = event["body"]
    if body["type"] == "init":
        node = body["node_id"]
    elif body["type"] == "deliver":
        offset = body["key"]
        if not ask("volatile", {"type": "read", "key": offset, "op": body["op"]})["found"]:
            ask("volatile", {"type": "write", "key": offset, "op": body["op"], "record": {"state": "COMPLETED"}})
            emit("billing", {"type": "effect", "op": body["op"], "value": body["payload"]})
        emit(event["src"], {"type": "commit", "op": body["op"], "attempt": body["attempt"], "key": offset})
    emit("harness", {"type": "done", "in_reply_to": body["msg_id"]})
