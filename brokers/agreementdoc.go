package brokers

import (
	"fmt"
	"io"
	"strings"

	"github.com/oncesim/once/live"
)

// Difference is one thing a real broker does that the model does not, or
// does otherwise, and what became of it: the model corrected, or a
// documented difference with its reason — never silence.
type Difference struct {
	Broker Kind
	Real   string // what the broker does (seen here, BROKERS.md)
	Model  string // what the simulator does
	Status string // corrected, documented (and why), or not exercised yet (and by what it would be)
}

// Differences are the known ones, written into the report under its table.
func Differences() []Difference {
	return []Difference{
		{RabbitMQ, "a consumer whose connection dies before its ack: RabbitMQ requeues the message at once and the next consumer gets it with `Redelivered=true`",
			"the broker redelivers an uncommitted delivery after its visibility timeout (1 s); the restarted consumer (500 ms) gets it then",
			"documented: the same redelivery, earlier on RabbitMQ (no timeout: the dead connection is the signal); effects and verdicts agree, end times do not"},
		{RabbitMQ, "after a SIGKILL of the broker and a restart with a durable queue, every persistent message comes back `Redelivered=true`, including ones never delivered",
			"rabbitmq-broker-crash: the durable-queue node crashes before or after writing a publish to disk and, restarted on its disk, delivers every message not acked again with `Redelivered=true` (the delivery's value 1), never-delivered ones included",
			"modelled (issue 31 item 2) and run per seed: the rabbitmq-broker-crash rows above kill and restart a real node at the simulator's crash points: alo (the retry's second copy and the redelivered unacked message billed again, as in the model) and its fix, idem (billed once: the dedup row). `TestIntegrationRabbitMQBrokerCrash` pins RabbitMQ (3 persistent confirmed messages, 1 delivered unacked, the node SIGKILLed and restarted: all 3 back with `Redelivered=true`) and `TestBrokerCrashFlagsEveryRecoveredMessage` the model (200 seeds, 227 broker crashes: every recovered message flagged, 315 of them never delivered before, none flagged before a crash). " +
				"Not run per seed: the `redelivered=skip` row (a consumer that reads the flag as \"I processed this\" loses the never-delivered messages) and at-most-once (auto-ack without confirms: the driver would need a confirm to know a publish is on disk, and a confirm changes what RabbitMQ does with an auto-acked message)"},
		{RabbitMQ, "a consumer that acks before its work (basic.qos 1): RabbitMQ delivers the next message after the ack, and only to a consumer that is connected: messages published while the consumer is down wait in the queue; the message sent to a consumer killed before it read it is requeued when its connection dies and comes back `Redelivered=true`",
			"idempotent-consumer-dedup's broker under at-most-once pushed every record as it arrived and forgot it, also to a consumer that was down: the records published during its restart were lost",
			"corrected: the scenario's broker runs with `amo-delivery: prefetch-1` (one record at a time, the next after the commit; a restarted consumer's `consume` requeues the record delivered to the crashed one; a delivery not acked within the visibility timeout is given up, never delivered again), and the after-commit crash is keyed by the record's offset; the row went from 81 to the agreement above"},
		{RabbitMQ, "a durable queue declared and the node SIGKILLed within about 2 s of queue.declare-ok can be gone after the restart: the declaration writes rabbit_queue (RAM) and rabbit_durable_queue (disc) in one Mnesia transaction, which tables of different storage make asymmetric: its commit record says presume_abort and a separate decision record follows; the decision can reach LATEST.LOG after the declare-ok (disk_log keeps writes in the Erlang process up to 2 s unless synced; measured missing right after the declare-ok for 1 of 20 declares on a node's first boot, 11 of 20 after a restart; why RabbitMQ's disk_log sync after the transaction does not cover it was not traced), and a commit without its decision is aborted when the node starts again",
			"the durable queue exists before the scenario begins; a crash never loses it",
			"found and kept out of the runs (RabbitMQ 3.10.8 with Mnesia 4.21.3, not a difference of the model): before, 1 of 27 kills over 20 seeds lost the queue (seed 6, killed 2 ms after the declare-ok: the queue's commit record in LATEST.LOG without its decision; the 26 others had every decision on disk), and agreement runs lost it on seeds 7 and 20; " +
				"the driver now waits for every decision before the scenario begins and before each kill (`brokers/testdata/mnesia` keeps both logs, `TestUndecided` reads them), and no queue was lost since: 0 of 28 kills over 20 seeds, and no run of this report's two rabbitmq-broker-crash rows"},
		{RabbitMQ, "a second ack of one delivery tag closes the channel with 406 PRECONDITION_FAILED",
			"a second commit of one delivery is ignored",
			"not exercised: the drivers ack each delivery once"},
		{RabbitMQ, "a lost publisher confirm: the message is stored, the producer does not know and publishes again: a second message (a classic queue has no producer dedup)",
			"a lost publish-ack: the producer republishes after its timeout (1 s), the broker appends a second record",
			"agrees: the driver ignores the confirm the decider loses, and the second message is charged again under alo and found in the dedup table under idem"},
		{RabbitMQ, "RabbitMQ has no visibility timeout: a delivery stays unacked while its consumer's connection lives (consumer_timeout: 30 min)",
			"the broker redelivers an uncommitted delivery after its visibility timeout (1 s): a lost delivery or a lost commit comes back",
			"emulated: where the decider loses a delivery or the consumer's ack, the consumer requeues it (Nack, requeue=true) after the visibility timeout; dup and the pause are not applied (0 in both worlds)"},
		{Redis, "`SET k v NX PX ttl` answers OK or nil and hands out no token; the lock expires while its holder is stopped (SIGSTOP) and is granted to the other worker",
			"the key store grants the lock, expires it after the TTL; the fencing token comes from a separate counter",
			"agrees: the token is taken from the ledger's SQLite counter, as the model's tokens node"},
		{Redis, "a Streams consumer that dies leaves its entry pending: Redis never redelivers it by itself; only `XCLAIM`/`XAUTOCLAIM` after min-idle does",
			"redis-streams-autoclaim: the stream keeps a dead consumer's entry pending and never delivers it again; a consumer's XAUTOCLAIM takes it once it is idle past min-idle-time, its delivery count incremented",
			"modelled (issue 31): `--broker redis` runs the scenario's consumers as processes on a real stream (XREADGROUP, XACK, XAUTOCLAIM; the claimed entry's delivery count read from XPENDING, as `XMessage` carries none before Redis 8.2). " +
				"One difference, not in the effects: a real blocked read times out every BLOCK (200 ms) whether or not an entry is pending; the model's reads time out only while one is, as a time-out with nothing pending is followed by the same read"},
		{NATS, "JetStream accepts an ack of an earlier delivery after the AckWait redelivery (the ack names the stream sequence); a second publish with one `Nats-Msg-Id` inside the duplicate window answers the first sequence with `Duplicate=true`",
			"nats-msg-id-window: the late ack is accepted and the redelivery ships again; a retry inside the window is a duplicate, after it a new message",
			"agrees: `--broker nats` runs the scenario with every duration divided by 30 (AckWait 30 s → 1 s, the window 2 min → 4 s, a 45 s pause → 1.5 s); the late ack is answered, the redelivery ships again"},
		{NATS, "a push consumer stops delivering while nobody subscribes to its deliver subject: the message in flight when the subscriber died comes back after AckWait, the later ones are delivered when it is back (NumDelivered 1)",
			"the stream pushes every message to the crashed subscriber (to-down) and redelivers each after AckWait (delivery 2)",
			"corrected in the driver (issue 31): it keeps the scenario's clock and drops, as the simulator does, a delivery that comes while the model's subscriber is down; JetStream delivers it again after AckWait, counted as in the model (see *What stands for what*). " +
				"Before, the driver asked each crash and pause of NumDelivered alone: a message published while the subscriber was down was shipped as delivery 1 where the model ships it as delivery 2, and a crash decided for one is not decided for the other (seed 1 alo: the model crashes op-10's delivery 2; on NATS op-10 came once, as delivery 1): 183 of 200 operations agreed at alo, 185 at idem retry=3m (a run of 2026-12-02 on a loaded machine); with the clock, 200 of 200 on every NATS row"},
		{KFake, "kfake (franz-go's in-process Kafka-protocol cluster, not Apache Kafka): a lost batch is answered NOT_LEADER_OR_FOLLOWER before the append, a lost ack NOT_ENOUGH_REPLICAS_AFTER_APPEND after it; franz-go retries both at once",
			"the producer resends after its timeout (200 ms) when a batch or its ack is lost",
			"documented: the retry comes earlier on kfake; the records per operation agree. At-most-once runs with acks=0: a lost batch is refused by kfake, franz-go reads no answer, the record is lost as in the model"},
		{KFake, "kfake (not Apache Kafka): a second producer with the same transactional id bumps the epoch (InitProducerID) and aborts the first's open transaction; the first's commit (EndTxn) is answered PRODUCER_FENCED (90) and read_committed sees the second's record only",
			"kafka-zombie-fencing `txn-id=partition`: the standby registers the shared transactional id, the coordinator answers the zombie's end-txn PRODUCER_FENCED (90); effects once",
			"agrees, compared by `TestIntegrationKfakeZombieFencing` (kfake's error and read_committed view beside the model's code 90 on seeds 1..20, 2 of which freeze the owner, each held). Not in the per-operation table: no driver runs the scenario's consumer group on kfake yet, and its KIP-447 row (the group coordinator's generation check) is not compared"},
	}
}

// WriteMarkdown writes the report: how it was made, the total, the table
// per scenario, variant and broker, the disagreements with their reasons,
// and the known differences.
func (r *AgreementRecord) WriteMarkdown(w io.Writer) {
	ops, agree := r.Total()
	fmt.Fprintf(w, "# Real brokers against the simulator: per-operation agreement\n\n")
	fmt.Fprintf(w, "Written by `make broker-agreement` (`%s`) from the results it recorded in "+
		"`brokers/testdata/broker-agreement.json`; `TestBrokerAgreementDoc` checks that this file is what that record renders to. "+
		"Every row runs in the simulator and on a real broker (`once live --broker`) on the same seeds (%d each); "+
		"an operation agrees when its effects are equal (rows counted in the run's SQLite ledger, effects in the simulator), "+
		"a run's verdict agrees when both judge its promise the same (held, violated).\n\n", r.Command, r.Seeds)
	fmt.Fprintf(w, "**%d of %d operations agree (%.2f %%).**\n\n", agree, ops, live.Pct(agree, ops))
	fmt.Fprintf(w, "Faults: each broker's driver applies some of the simulator's fault kinds to the real broker "+
		"(the column *faults*); the others are set to 0 in both worlds, so a seed draws the same faults in each. "+
		"Every fault is decided by live's seeded Decider keyed by the simulator's identity of the event. "+
		"Broker timing is real time (1 tick = 1 ms). kfake is franz-go's in-process Kafka-protocol cluster, not Apache Kafka.\n\n")
	fmt.Fprintf(w, "Rows of different runs stand side by side (`make broker-agreement BROKER=…` measures one broker's rows and keeps the others): "+
		"the column *measured* says which run each row comes from — when it began (UTC), the commit measured (*+changes*: with changes not yet committed), "+
		"its seeds, the row's wall time and the 1-minute load average at the row's start and end. "+
		"A row measured before the record kept this says the commit that recorded it.\n\n")
	fmt.Fprintf(w, "| scenario, semantics, --set | broker | --variant | faults | runs | verdicts agree | operations | agree | %% | measured |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, res := range r.Results {
		c := res.Case
		fmt.Fprintf(w, "| %s | %s | %s | %s | %d | %d | %d | %d | %.1f | %s |\n", c, brokerName(c.Broker), live.OrDash(c.Variant), live.OrDash(res.Faults),
			res.Runs, res.VerdictsAgree, res.Ops, res.Agree, live.Pct(res.Agree, res.Ops), res.Run.String(res.Seconds))
	}
	for _, res := range r.Results {
		if res.Case.CrashesBroker {
			fmt.Fprintf(w, "\n%s on %s kills the broker: a RabbitMQ node of its own, SIGKILLed at each crash the simulator draws (before-persist: the publish not sent; after-persist: once its confirm came, the confirm dropped) and restarted on its directory, the queue awaited up to 120 s after it. "+
				"Before the scenario begins and before each kill the driver waits until the queue's declaration is durable: its record in Mnesia's files and every transaction of Mnesia's log with its decision there (at most about 2 s; see the RabbitMQ row *a durable queue declared…* below). "+
				"Each restart takes 7–15 s, so each run is bounded at %s and the row at %d × that; this run's %d seeds took %d s on a shared machine.\n",
				res.Case, brokerName(res.Case.Broker), CrashRunDeadline, res.Runs, res.Runs, res.Seconds)
		}
	}
	fmt.Fprintf(w, "\n## What stands for what\n\n")
	for _, res := range r.Results {
		if res.Case.Model != "" {
			fmt.Fprintf(w, "- %s on %s%s: %s.\n", res.Case, brokerName(res.Case.Broker), variantFlag(res.Case.Variant), res.Case.Model)
		}
	}
	fmt.Fprintf(w, "\n## Disagreements\n\n")
	n := 0
	for _, res := range r.Results {
		if len(res.Failed) > 0 {
			n++
			fmt.Fprintf(w, "### %s on %s: runs that did not complete\n\n", res.Case, brokerName(res.Case.Broker))
			fmt.Fprintf(w, "Counted as runs and operations that do not agree. %s\n\n| seed | error |\n|---|---|\n", res.Case.FailedWhy)
			for _, f := range res.Failed {
				fmt.Fprintf(w, "| %d | %s |\n", f.Seed, strings.ReplaceAll(f.Error, "|", "\\|"))
			}
			fmt.Fprintln(w)
		}
		if len(res.Disagreements) == 0 {
			continue
		}
		n++
		fmt.Fprintf(w, "### %s on %s%s\n\n", res.Case, brokerName(res.Case.Broker), variantFlag(res.Case.Variant))
		if res.Case.Explained != "" {
			fmt.Fprintf(w, "Why: %s\n\n", res.Case.Explained)
		} else {
			fmt.Fprintf(w, "Why: **not explained** (the generator fails on this).\n\n")
		}
		fmt.Fprintf(w, "| seed | op | effects sim / broker |\n|---|---|---|\n")
		for _, d := range res.Disagreements {
			fmt.Fprintf(w, "| %d | op-%d | %d / %d |\n", d.Seed, d.Op, d.SimEffects, d.BrokerEffects)
		}
		fmt.Fprintln(w)
	}
	if n == 0 {
		fmt.Fprintf(w, "None.\n\n")
	}
	fmt.Fprintf(w, "## Where a real broker does what the model does not\n\n")
	fmt.Fprintf(w, "| broker | the real broker | the model | what became of it |\n|---|---|---|---|\n")
	for _, d := range Differences() {
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", brokerName(d.Broker), d.Real, d.Model, d.Status)
	}
}

// brokerName is the broker's short screen name (kfake says what it is).
func brokerName(k Kind) string {
	if k == KFake {
		return "kfake (not Apache Kafka)"
	}
	return k.Title()
}
