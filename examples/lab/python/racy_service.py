#!/usr/bin/env python3
"""A payment service with a race, for `once lab concurrent-same-key`.

It is the idempotent service of this folder (idempotent_service.py) with
one change, the on_pay below: it creates the key's row by *check, then
insert* — a read, and if no row is there, a plain write — instead of one
atomic insert_if_absent. Everything else (the protocol loop, the charge,
recovery after a crash) is idempotent_service.py's, imported. Alone, one
request at a time, it is correct. With two replicas (a double click
reaching two instances behind a balancer), a preemption after the read
lets the other request read the same empty key: both insert, both charge.
`once lab concurrent-same-key --node service="python3 racy_service.py" --explore`
finds it with one preemption. Protocol: docs/lab-protocol.md.
"""
import idempotent_service as svc


def on_pay(body):
    key, op = body["key"], body["op"]
    if key == 0:  # no Idempotency-Key (the at-least-once client): nothing to dedup by
        svc.charge(op, body["attempt"], 0, body["payload"])
        return
    row = svc.read(key, op)  # check...
    if row is not None and body["payload"] != svc.fingerprint(row):
        svc.reply(body, 422, 0)  # the key of another request: refuse, change nothing
    elif row is not None and row.get("state") == "COMPLETED":
        svc.reply(body, row["status"], row.get("value", 0))  # the stored response
    elif row is not None:
        svc.reply(body, 409, 0)  # still PROCESSING: the client will retry
    else:
        # ...then insert: another request may have read the same empty key
        # between our read and this write. PROCESSING is durable before the
        # gateway is called; value keeps the body.
        svc.write(key, op, {"state": "PROCESSING", "value": body["payload"], "aux": op})
        svc.charge(op, body["attempt"], key, body["payload"])


if __name__ == "__main__":
    svc.on_pay = on_pay  # the one change
    svc.main()
