/*
 * double_billing.pml: a Promela model of once's `double-billing` scenario
 * (scenarios/catalog/double-billing.yaml) under at-least-once + idempotent
 * consumer, written to measure SPIN against `once explore` on the same
 * bounds:
 *
 *   once explore double-billing --semantics idem --ops 5 --max-faults 6 \
 *        --faults loss,ack-loss
 *
 * Roles (scenarios/http_client.go, http_service.go, http_gateway.go):
 *   Client   starts N payments, one Idempotency-Key per payment (its op
 *            number), and re-sends every payment still without a final
 *            answer when its retry timer fires; a 409 is not final.
 *   Service  durable key store: the key is written PROCESSING before the
 *            gateway is called and COMPLETED with the transaction id when
 *            the charge returns, then the response is sent; a retry of a
 *            COMPLETED key gets the stored response (same transaction id),
 *            a key still PROCESSING gets 409.
 *   Gateway  charges every charge request it receives, with a new
 *            transaction id each time, and counts charges per payment: the
 *            card-charges sink, where double billing is observed.
 *
 * Links: client->service (requests) and service->client (responses) are
 * lossy. Each loss is a nondeterministic choice made when the message is
 * sent, allowed while the global fault budget MAXF is not spent, and costs
 * one fault. service<->gateway is reliable and FIFO. No crashes, no
 * duplicates, no "slow" messages (the comparison enumerates loss,ack-loss).
 *
 * Timing: once delivers every in-flight message before the 1 s retry timer
 * that waits for it (without the "slow" fault, a timer never overtakes a
 * message), so a retry only happens once the network is quiet. Promela's
 * `timeout` (executable only when no other statement of the system is) is
 * exactly that condition: the client retries on `timeout`. As in once under
 * these faults, the 409 branch and a second response for a finished payment
 * are therefore unreachable, and SPIN lists them as unreached code.
 *
 * Granularity: each handler (one receive, or one timer, and everything the
 * role does in response) is one atomic step, as one engine step is in once.
 * -DFINE drops the atomic blocks: every receive, send, choice and
 * assignment becomes its own interleaving point (same behaviour, many more
 * states).
 *
 * Properties: the gateway asserts that no payment is charged twice; when
 * the client has a final answer for every payment it asserts that each was
 * charged exactly once; the client asserts that every answer for a payment
 * carries the same transaction id; SPIN's invalid-end-state check makes
 * sure the client always finishes (Service and Gateway wait at `end`).
 *
 * Variants:
 *   (default)  at-least-once + idempotent: SPIN proves no double charge.
 *   -DALO      at-least-once, no key store: every request is a new charge;
 *              SPIN finds the double charge (one lost response suffices).
 *   -DN=k -DMAXF=k   other bounds.
 *
 *   spin -a double_billing.pml        # or: spin -DALO -a double_billing.pml
 *   gcc -O2 -DSAFETY -o pan pan.c
 *   ./pan -m100000
 *   spin -t double_billing.pml        # replays a trail, event by event
 *
 * The EV(...) lines name events as once's traces do; they are not part of
 * the state and cost nothing during verification (see EV below).
 */

#ifndef N
#define N 5          /* payments (operations)                           */
#endif
#ifndef MAXF
#define MAXF 6       /* faults: lost requests + lost responses          */
#endif
#define QS N         /* channel capacity: at most one message per
                        payment is in flight on a link                  */

#ifdef FINE
#define STEP
#else
#define STEP atomic
#endif

/* EV(...) logs one event, named as in once's traces, for trail replays
 * (spin -t). It carries its own leading ';' and follows a statement. Inside
 * an atomic handler a printf costs nothing; with -DFINE it would be a
 * statement of its own and add states, so -DFINE compiles it out. */
#ifdef FINE
#define EV(...)
#else
#define EV(...) ; printf(__VA_ARGS__)
#endif

/* key store states (the lesson's PROCESSING / COMPLETED) */
#define NONE       0
#define PROCESSING 1
#define COMPLETED  2

mtype = { CREATED, CONFLICT };                 /* 201, 409 */

chan c2s = [QS] of { byte };                   /* pay: op (= Idempotency-Key) */
chan s2c = [QS] of { mtype, byte, byte };      /* pay-response: status, op, txn */
chan s2g = [QS] of { byte };                   /* charge: op                  */
chan g2s = [QS] of { byte, byte };             /* charge-result: op, txn      */

byte faults = 0;          /* faults spent, global budget MAXF              */
byte charged[N+1];        /* the card-charges sink: charges per payment    */

/* a request on the lossy client->service link */
inline send_pay(o) {
  if
  :: c2s!o
  :: faults < MAXF -> faults++
     EV("  client   DROP(loss) -> service pay op-%d\n", o)
  fi
}

/* a response on the lossy service->client link */
inline reply(st, o, t) {
  if
  :: s2c!st,o,t
  :: faults < MAXF -> faults++
     EV("  service  DROP(loss) -> client pay-response op-%d\n", o)
  fi
}

active proctype Client() {
  byte next = 1;          /* next payment to start                 */
  byte ndone = 0;         /* payments with a final answer          */
  bool done[N+1];         /* final answer received                 */
  byte got[N+1];          /* the transaction id of that answer     */
  byte i, op, t;
  mtype st;

  do
  :: STEP {
       next <= N ->                                 /* a payment starts */
       send_pay(next);
       next++
     }
  :: STEP {
       s2c?st,op,t                                  /* a response arrives */
       EV("  client   deliver <- service pay-response op-%d status=%e txn=%d\n", op, st, t);
       if
       :: st == CREATED && !done[op] ->
          done[op] = true; got[op] = t; ndone++
          EV("  client   outcome op-%d txn=%d\n", op, t)
       :: st == CREATED && done[op] ->
          assert(got[op] == t)                      /* one transaction id per payment */
       :: st == CONFLICT -> skip                    /* 409: in flight, retry later */
       fi;
       op = 0; t = 0; st = 0
     }
  :: STEP {
       timeout ->                                   /* the network is quiet: the retry */
       i = 1;                                       /* timers of pending payments fire */
       do
       :: i > N -> break
       :: i <= N && !done[i] -> send_pay(i); i++
       :: i <= N && done[i] -> i++
       od;
       i = 0
     }
  :: ndone == N -> break
  od;

  /* every payment done and charged exactly once */
  i = 1;
  do
  :: i > N -> break
  :: i <= N -> assert(done[i] && charged[i] == 1); i++
  od
}

active proctype Service() {
  byte op, t;
#ifndef ALO
  byte key[N+1];          /* durable key store: NONE / PROCESSING / COMPLETED */
  byte stored[N+1];       /* the stored response's transaction id             */
#endif

end:
  do
  :: STEP {
       c2s?op                                       /* POST /payments */
       EV("  service  deliver <- client pay op-%d\n", op);
#ifdef ALO
       s2g!op;                                      /* every request is a new charge */
#else
       if
       :: key[op] == NONE ->
          key[op] = PROCESSING; s2g!op              /* mark, then call */
       :: key[op] == PROCESSING ->
          reply(CONFLICT, op, 0)                    /* in flight: 409 */
       :: key[op] == COMPLETED ->
          reply(CREATED, op, stored[op])            /* the stored response */
       fi;
#endif
       op = 0
     }
  :: STEP {
       g2s?op,t                                     /* the charge returned */
       EV("  service  deliver <- gateway charge-result op-%d txn=%d\n", op, t);
#ifndef ALO
       key[op] = COMPLETED; stored[op] = t;         /* store the response, then reply */
#endif
       reply(CREATED, op, t);
       op = 0; t = 0
     }
  od
}

active proctype Gateway() {
  byte op;
  byte txn = 0;           /* last transaction id issued */

end:
  do
  :: STEP {
       s2g?op
       EV("  gateway  deliver <- service charge op-%d\n", op);
       txn++;
       charged[op]++
       EV("  gateway  EFFECT card-charges op-%d txn=%d (charge #%d)\n", op, txn, charged[op]);
       assert(charged[op] <= 1);                    /* no double charge */
       g2s!op,txn;
       op = 0
     }
  od
}
