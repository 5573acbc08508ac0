package kafka

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Broker is the leader of every partition of the model: the input
// topic (filled with one record per operation when the broker first
// boots), the output topic, and the consumer group's offsets (it is also
// the group coordinator).
//
// Appends follow the idempotent producer: a record carries (producer id,
// epoch, sequence); one of the last 5 sequences appended is a duplicate,
// not appended again and answered as a success with its original offset,
// and — unless Fencing is off — an epoch older than the newest one this
// partition has seen (from a write or a control record) is rejected with
// INVALID_PRODUCER_EPOCH. That check is what fences a zombie.
//
// Transactional records are appended OPEN. The coordinator's write-markers
// appends a COMMIT or ABORT control record, settles every OPEN record of
// that producer, and makes the transaction's pending consumer offsets
// committed (or drops them). A read_committed fetch never goes past the
// first OPEN record (the last stable offset) and skips ABORTED records and
// control records; a read_uncommitted fetch returns every data record.
// A fetch with nothing to return is parked until something becomes visible.
//
// With a Session timeout it is also the group coordinator of group.go:
// generations, an owner and standbys, heartbeats and rebalances.
//
// With Verify (KIP-890 part 1, Kafka 3.6's
// transaction.partition.verification.enable) the leader does not trust a
// transactional produce that would open a transaction on the partition: it
// holds the write and asks the coordinator (verify-txn) whether the
// producer, in that epoch, has an ongoing transaction. A late write of an
// aborted transaction is refused (INVALID_TXN_STATE) instead of opening a
// transaction nobody will end.
//
// The last stable offset (LSO) of the output partition is where a
// read_committed fetch stops: the first OPEN record. When records of
// another producer are committed beyond it, the broker writes the traced
// row last-stable-offset[2] = STUCK (Value the LSO, Status how many
// committed records wait behind it), and STABLE once it moves past them:
// the trace's view of a transaction that holds every reader back.
type Broker struct {
	Fencing bool
	Session sim.Time // 0: no group membership (a lone processor owns the input)
	Verify  bool
	// Coordinator is the transaction coordinator asked when Verify is on.
	Coordinator sim.NodeID
	// Others is how many operations other producers write (the last ones
	// of the run): the input topic holds the rest.
	Others int64
	lso    sim.TableID // the last-stable-offset table
	counts sim.TableID // output offset → {Value: the count a Kafka Streams task wrote with the record}
}

// keepCount keeps the count a produce carries (a Kafka Streams task's
// aggregate, its changelog value) beside the record it appended; a plain
// output carries none and leaves the table empty.
func (b *Broker) keepCount(ctx *sim.Context, offset int64, p produce) {
	if p.Count != 0 {
		ctx.Put(b.counts, offset, p.Op, sim.Record{Value: int64(p.Count)})
	}
}

const (
	kbLog        sim.TableID = iota // output topic: offset → a logRow
	kbLogEnd                        // topic → {Value: next offset}
	kbProducers                     // pid → a producerRow
	kbGroup                         // group → a groupRow
	kbPending                       // pid → a pendingRow
	kbDeliveries                    // input offset → {Value: times served}
	kbParked                        // consumer node → a parkedRow
	kbInputLog                      // input topic: offset → a logRow
)

func kafkaBrokerTables() []sim.TableSpec {
	return []sim.TableSpec{
		{Name: logTableName, Durable: true, Traced: true, States: logStates},
		{Name: "log-end", Durable: true},
		{Name: "producers", Durable: true},
		{Name: "group-offsets", Durable: true, Traced: true, States: []string{"", "COMMITTED"}},
		{Name: "pending-offsets", Durable: true, Traced: true, States: []string{"", "PENDING", "COMMITTED", "DISCARDED"}},
		{Name: "deliveries", Durable: true},
		{Name: "parked-fetches"},
		{Name: "input-log", Durable: true, Traced: true, States: logStates},
	}
}

// kbVerifying holds the writes waiting for the coordinator's verdict,
// by verifyingKey; it follows the group tables, which a verifying broker
// declares too (empty without a Session).
const kbVerifying = kbMembers + 1

func (b *Broker) tables() []sim.TableSpec {
	t := kafkaBrokerTables()
	if b.Session > 0 || b.Verify {
		t = append(t, groupTables()...)
	}
	if b.Verify {
		t = append(t, sim.TableSpec{Name: "verifying"})
	}
	b.lso = sim.TableID(len(t))
	b.counts = b.lso + 1
	return append(t, sim.TableSpec{Name: "last-stable-offset", Traced: true, States: lsoStates},
		sim.TableSpec{Name: "record-counts", Durable: true, AgeFree: true})
}

// States of the last-stable-offset row.
const (
	lsoStable int32 = iota + 1 // nothing committed waits behind an open transaction
	lsoStuck                   // committed records wait behind the first OPEN record
)

var lsoStates = []string{"", "STABLE", "STUCK"}

// watchLSO writes the last-stable-offset row when committed records start
// (or stop) waiting behind an open transaction, or when the wait changes.
func (b *Broker) watchLSO(ctx *sim.Context) {
	log := ctx.Rows(kbLog)
	lso, held := int64(0), int32(0)
	for i := 0; i < log.Len(); i++ {
		key, rec := log.At(i)
		switch decodeLogRow(rec).State {
		case logOpen:
			if lso == 0 {
				lso = key
			}
		case logCommitted, logPlain:
			if lso != 0 {
				held++
			}
		}
	}
	var prev sim.Record // read through Rows: a check is not an event of the trace
	rows := ctx.Rows(b.lso)
	ok := rows.Len() > 0
	if ok {
		_, prev = rows.At(0)
	}
	switch {
	case held > 0 && (prev.State != lsoStuck || prev.Value != lso || prev.Status != held):
		ctx.Put(b.lso, topicOutput, 0, sim.Record{State: lsoStuck, Value: lso, Status: held})
	case held == 0 && ok && prev.State == lsoStuck:
		if lso == 0 {
			end, _ := ctx.Get(kbLogEnd, topicOutput, 0)
			lso = end.Value
		}
		ctx.Put(b.lso, topicOutput, 0, sim.Record{State: lsoStable, Value: lso})
	}
}

// verifyingKey is the row of a write waiting for verification: one per
// producer id and sequence.
func verifyingKey(p produce) int64 { return p.PID<<20 | p.Seq&(1<<20-1) }

// openTxnOf reports whether the producer has an OPEN record of this epoch
// in the output log: a transaction the partition already takes part in.
func openTxnOf(ctx *sim.Context, pid, epoch int64) bool {
	log := ctx.Rows(kbLog)
	for i := 0; i < log.Len(); i++ {
		_, rec := log.At(i)
		if r := decodeLogRow(rec); r.State == logOpen && r.PID == pid && int64(r.Epoch) == epoch {
			return true
		}
	}
	return false
}

const kafkaGroup = 1

// States of a transaction's pending offsets.
const (
	offsetsPending int32 = iota + 1
	offsetsCommitted
	offsetsDiscarded
)

// pendingOffsets reports whether an open transaction holds offsets. A
// pending commit of an epoch older than the newest one the partition saw
// belongs to a transaction that is over (only an unfenced zombie can leave
// one): no marker will ever settle it, so it is discarded instead of
// blocking every offset-fetch forever.
func pendingOffsets(ctx *sim.Context) bool {
	rows := ctx.Rows(kbPending)
	var stale []int64
	open := false
	for i := 0; i < rows.Len(); i++ {
		pid, r := rows.At(i)
		p := decodePendingRow(r)
		if p.State != offsetsPending {
			continue
		}
		if rec, ok := ctx.Get(kbProducers, pid, 0); ok && p.Epoch < decodeProducerRow(rec).Epoch {
			stale = append(stale, pid)
			continue
		}
		open = true
	}
	for _, pid := range stale {
		r, _ := ctx.Get(kbPending, pid, 0)
		p := decodePendingRow(r)
		p.State, p.At = offsetsDiscarded, 0
		ctx.Put(kbPending, pid, 0, p.encode())
	}
	return open
}

// Start fills the input topic on the first boot.
func (b *Broker) Start(ctx *sim.Context) {
	if _, ok := ctx.Get(kbLogEnd, topicInput, 0); ok {
		return
	}
	for op := int64(1); op <= int64(ctx.Ops())-othersOf(ctx, b.Others); op++ {
		b.append(ctx, topicInput, logRow{State: logPlain, Op: sim.OpID(op)})
	}
}

// Timer is the group's session timeout.
func (b *Broker) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind == TimerSession {
		b.sessionExpired(ctx, t)
	}
}

// logOf is the log table of a topic.
func logOf(topic int64) sim.TableID {
	if topic == topicInput {
		return kbInputLog
	}
	return kbLog
}

// append adds r at the end of topic and returns its offset.
func (b *Broker) append(ctx *sim.Context, topic int64, r logRow) int64 {
	end, ok := ctx.Get(kbLogEnd, topic, r.Op)
	if !ok {
		end.Value = 1
	}
	offset := end.Value
	ctx.Put(logOf(topic), offset, r.Op, r.encode())
	end.Value++
	ctx.Put(kbLogEnd, topic, r.Op, end)
	return offset
}

// visible returns the first record at or after position that a fetch with
// the given isolation level may return.
func visible(ctx *sim.Context, f fetch) (int64, logRow, bool) {
	log := ctx.Rows(logOf(f.Topic))
	for i := 0; i < log.Len(); i++ {
		key, rec := log.At(i)
		if key < f.Position {
			continue
		}
		r := decodeLogRow(rec)
		switch r.State {
		case logPlain, logCommitted:
			return key, r, true
		case logOpen:
			if f.Isolation == readCommitted {
				return 0, r, false // the last stable offset: nothing beyond it yet
			}
			return key, r, true
		case logAborted:
			if f.Isolation == readUncommitted {
				return key, r, true
			}
		}
	}
	return 0, logRow{}, false
}

// serve answers a fetch, or reports that it must wait.
func (b *Broker) serve(ctx *sim.Context, to sim.NodeID, f fetch) bool {
	key, r, ok := visible(ctx, f)
	if !ok {
		return false
	}
	delivery := int32(1)
	if f.Topic == topicInput {
		d, _ := ctx.Get(kbDeliveries, key, r.Op)
		d.Value++
		ctx.Put(kbDeliveries, key, r.Op, d)
		delivery = int32(d.Value)
	}
	rec := record{Op: r.Op, Delivery: delivery, Offset: key, Topic: f.Topic}
	if f.Topic == topicOutput {
		c, _ := ctx.Get(b.counts, key, r.Op)
		rec.Count = c.Value
	}
	ctx.Send(to, rec.encode())
	return true
}

// wake answers the parked fetches that can now be served.
func (b *Broker) wake(ctx *sim.Context) {
	parked := ctx.Rows(kbParked)
	var ready []int64
	for i := 0; i < parked.Len(); i++ {
		node, r := parked.At(i)
		if _, _, ok := visible(ctx, decodeParkedRow(r).fetch()); ok {
			ready = append(ready, node)
		}
	}
	for _, node := range ready {
		r, _ := ctx.Get(kbParked, node, 0)
		ctx.Delete(kbParked, node, 0)
		b.serve(ctx, sim.NodeID(node), decodeParkedRow(r).fetch())
	}
}

// Receive handles fetches, produces, offsets and control-record requests.
func (b *Broker) Receive(ctx *sim.Context, m sim.Message) {
	if b.Session > 0 && b.groupReceive(ctx, m) {
		return
	}
	switch m.Kind {
	case MsgFetch:
		f := decodeFetch(m)
		switch {
		case b.serve(ctx, m.From, f):
		case f.NoWait:
			ctx.Send(m.From, record{Offset: f.Position, Topic: f.Topic}.encode()) // nothing more: the end of the log
		default:
			ctx.Put(kbParked, int64(m.From), 0, parkedRow{Position: f.Position, Topic: f.Topic, Isolation: int32(f.Isolation)}.encode())
		}
	case MsgProduce:
		b.produce(ctx, m.From, decodeProduce(m), false)
	case MsgTxnVerified:
		b.verified(ctx, decodeVerifyTxn(m))
	case MsgTxnOffsets:
		t := decodeTxnOffsets(m)
		ack := offsetAck{PID: t.PID, Epoch: t.Epoch, Position: t.Position, Corr: t.Corr}
		if p, ok := ctx.Get(kbProducers, t.PID, 0); ok && b.Fencing && t.Epoch < int64(decodeProducerRow(p).Epoch) {
			ack.Err = kafkaInvalidProducerEpoch
		} else if err := b.memberError(ctx, m.From, int64(t.Generation)); err != 0 {
			ack.Err = err // KIP-447: the group fences a zombie's offsets
		} else {
			ctx.Put(kbPending, t.PID, 0, pendingRow{State: offsetsPending, Position: t.Position, Epoch: int32(t.Epoch)}.encode())
		}
		ctx.Send(m.From, ack.encode())
	case MsgOffsetCommit:
		o := decodeOffsetCommit(m)
		if err := b.memberError(ctx, m.From, o.Generation); err != 0 {
			ctx.Send(m.From, offsetAck{Position: o.Position, Corr: o.Corr, Err: err}.encode())
			return
		}
		ctx.Put(kbGroup, kafkaGroup, 0, groupRow{Position: o.Position}.encode())
		ctx.Send(m.From, offsetAck{Position: o.Position, Corr: o.Corr}.encode())
	case MsgOffsetFetch:
		q := decodeOffsetFetch(m)
		if pendingOffsets(ctx) {
			// KIP-447: offsets of a transaction still open are not stable yet.
			ctx.Send(m.From, offsets{Err: kafkaUnstableOffsetCommit, Corr: q.Corr}.encode())
			return
		}
		g, _ := ctx.Get(kbGroup, kafkaGroup, 0)
		ctx.Send(m.From, offsets{Position: decodeGroupRow(g).Position, Corr: q.Corr}.encode())
	case MsgMarkers:
		b.markers(ctx, m.From, decodeMarkers(m))
	}
}

// verified appends (or refuses) a write the coordinator has answered for.
func (b *Broker) verified(ctx *sim.Context, v verifyTxn) {
	rec, ok := ctx.Get(kbVerifying, verifyingKey(v.P), v.P.Op)
	if !ok {
		return
	}
	ctx.Delete(kbVerifying, verifyingKey(v.P), v.P.Op)
	from := sim.NodeID(rec.Value)
	if v.Err != 0 {
		ctx.Send(from, produceAck{Op: v.P.Op, Attempt: v.P.Attempt, Epoch: v.P.Epoch, Seq: v.P.Seq, Err: v.Err}.encode())
		return
	}
	b.produce(ctx, from, v.P, true)
}

func (b *Broker) produce(ctx *sim.Context, from sim.NodeID, p produce, verified bool) {
	ack := produceAck{Op: p.Op, Attempt: p.Attempt, Epoch: p.Epoch, Seq: p.Seq}
	if p.PID == 0 {
		// A plain producer: every copy is a new record.
		ack.Offset = b.append(ctx, topicOutput, logRow{State: logPlain, Op: p.Op})
		b.keepCount(ctx, ack.Offset, p)
		ctx.Send(from, ack.encode())
		b.wake(ctx)
		return
	}
	r, known := ctx.Get(kbProducers, p.PID, p.Op)
	prod := decodeProducerRow(r)
	switch {
	case known && b.Fencing && p.Epoch < int64(prod.Epoch):
		ack.Err = kafkaInvalidProducerEpoch // a zombie: fenced
		ctx.Send(from, ack.encode())
		return
	case known && p.Epoch == int64(prod.Epoch) && p.Seq <= prod.LastSeq && p.Seq > prod.LastSeq-idemWindow:
		// A retry or a network copy of a batch already appended: not
		// appended again, and answered as a success with the offset it got
		// (ProducerStateEntry.findDuplicateBatch), not an error.
		ack.Offset = prod.LastOffset
		if p.Seq != prod.LastSeq {
			ack.Offset = appendedAt(ctx, p)
		}
		ctx.Send(from, ack.encode())
		return
	case known && p.Epoch == int64(prod.Epoch) && p.Seq != prod.LastSeq+1:
		ack.Err = kafkaOutOfOrderSequence
		ctx.Send(from, ack.encode())
		return
	}
	if b.Verify && !verified && !openTxnOf(ctx, p.PID, p.Epoch) {
		// The first write of a transaction here: is there one? (KIP-890 part 1)
		ctx.Put(kbVerifying, verifyingKey(p), p.Op, sim.Record{Value: int64(from)})
		ctx.Send(b.Coordinator, verifyTxn{P: p}.encode(MsgVerifyTxn))
		return
	}
	offset := b.append(ctx, topicOutput, logRow{State: logOpen, Epoch: int32(p.Epoch), Op: p.Op, PID: p.PID})
	b.keepCount(ctx, offset, p)
	if !known || p.Epoch >= int64(prod.Epoch) {
		// An unfenced zombie's write (Fencing off) is appended but does not
		// take the partition's producer state back to its old epoch.
		ctx.Put(kbProducers, p.PID, p.Op, producerRow{Epoch: int32(p.Epoch), LastSeq: p.Seq, LastOffset: offset}.encode())
	}
	ack.Offset = offset
	ctx.Send(from, ack.encode())
	b.watchLSO(ctx)
	b.wake(ctx)
}

// appendedAt finds the offset an earlier batch of p's producer and epoch
// was appended at.
func appendedAt(ctx *sim.Context, p produce) int64 {
	log := ctx.Rows(kbLog)
	for i := 0; i < log.Len(); i++ {
		key, rec := log.At(i)
		if r := decodeLogRow(rec); r.PID == p.PID && int64(r.Epoch) == p.Epoch && r.Op == p.Op {
			return key
		}
	}
	return 0
}

// markers settles a transaction: control record, record states, offsets.
func (b *Broker) markers(ctx *sim.Context, from sim.NodeID, w markers) {
	commit := w.Result == txnCommit
	state, marker := logAborted, logAbortMarker
	if commit {
		state, marker = logCommitted, logCommitMarker
	}
	log := ctx.Rows(kbLog)
	for i := 0; i < log.Len(); i++ {
		key, rec := log.At(i)
		if r := decodeLogRow(rec); r.State == logOpen && r.PID == w.PID {
			r.State = state
			r.At = 0
			ctx.Put(kbLog, key, r.Op, r.encode()) // replaces in place: the iteration is undisturbed
		}
	}
	b.append(ctx, topicOutput, logRow{State: marker, Epoch: int32(w.Epoch), PID: w.PID})
	if rec, ok := ctx.Get(kbPending, w.PID, 0); ok {
		if p := decodePendingRow(rec); p.State == offsetsPending {
			p.State, p.At = offsetsDiscarded, 0
			if commit {
				ctx.Put(kbGroup, kafkaGroup, 0, groupRow{Position: p.Position}.encode())
				p.State = offsetsCommitted
			}
			ctx.Put(kbPending, w.PID, 0, p.encode())
		}
	}
	rec, _ := ctx.Get(kbProducers, w.PID, 0)
	if w.Epoch > int64(decodeProducerRow(rec).Epoch) {
		ctx.Put(kbProducers, w.PID, 0, producerRow{Epoch: int32(w.Epoch)}.encode()) // a new epoch: sequences start again
	}
	ctx.Send(from, w.encode(MsgMarkersDone))
	b.watchLSO(ctx)
	b.wake(ctx)
}

// buildBroker builds a kafka-broker node from its options, each declared where it is read.
func buildBroker(a *roles.Args) (sim.Node, []sim.TableSpec) {
	b := &Broker{
		Fencing: a.Enum("fencing", "epoch", []string{"epoch", "none"}, "reject writes of an epoch older than the partition has seen, or accept them (no zombie fencing)") == "epoch",
		Session: a.Duration("session", "0", "session.timeout.ms of the consumer group: an owner silent this long loses the partition to a standby (0: no group protocol)"),
		Verify: a.Enum("verify", "off", []string{"off", "on"},
			"on: a transactional write that would open a transaction on the partition is first verified with the coordinator (KIP-890 part 1, Kafka 3.6+); off: appended as it comes") == "on",
	}
	coordinator, ok := a.OptionalNode("coordinator", "the transaction coordinator asked when verify is on")
	if b.Verify && !ok {
		a.Fail("verify", "verify: on needs option coordinator (the transaction coordinator to ask)")
	}
	b.Coordinator = coordinator
	b.Others = a.Int("others", 0, 0, 1000, "how many operations other producers write (the last ones of the run, as kafka-producer's ops): the input topic holds the rest")
	return b, b.tables()
}
