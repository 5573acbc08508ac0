package tui

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// runSpec is everything that picks one run: the TUI re-runs the simulation
// from it whenever the user changes one of them. A run is a pure function
// of a runSpec (and, for a what-if, of a fault plan).
type runSpec struct {
	sc     *scenarios.Scenario
	sem    sim.Semantics
	seed   uint64
	ops    int
	faults scenarios.Faults  // the fault profile: the scenario's, a flag's or a headline row's
	params map[string]string // --set or a headline row's parameters; never changed in place
	row    string            // the headline row's label ("idem write=publish-then-commit"), "" otherwise
}

// settings are the run's settings: the spec's semantics, ops, faults and
// parameters (the scenario's defaults fill the rest).
func (s runSpec) settings() scenarios.Settings {
	params := maps.Clone(s.params)
	if params == nil {
		params = map[string]string{}
	}
	return scenarios.Settings{Semantics: s.sem, Ops: s.ops, Faults: s.faults, Params: params}
}

// paramsText lists the spec's parameters as --set pairs, sorted:
// "write=publish-then-commit".
func (s runSpec) paramsText() string {
	keys := slices.Sorted(maps.Keys(s.params))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + s.params[k]
	}
	return strings.Join(parts, " ")
}

// nominalLoss is the loss probability a what-if run gives every lossy link
// whose profile says 0, so that the link offers the loss choices a
// scripted drop needs. The Scripted chooser answers every choice from the
// plan, so the number itself never decides anything.
const nominalLoss = 0.01

// whatIfSettings are set with loss offered on every request and response
// link. Only link loss changes: the other faults keep their choice points,
// so the recorded faults of the random run replay exactly.
func whatIfSettings(set scenarios.Settings) scenarios.Settings {
	for k := range sim.FaultKinds {
		if spec := &sim.FaultKinds[k]; spec.Choice == sim.ChoiceLoss {
			set.Faults.Probability[k] = max(set.Faults.Probability[k], nominalLoss)
		}
	}
	return set
}

// msgIdentity is what a loss choice is keyed by: the message's sender,
// receiver, kind, operation and attempt.
type msgIdentity struct {
	from, to sim.NodeID
	kind     sim.MsgKind
	op       sim.OpID
	attempt  int32
}

func identityOf(m *sim.Message) msgIdentity {
	return msgIdentity{m.From, m.To, m.Kind, m.Op, m.Attempt}
}

// lossFault is the fault that drops the occ-th send of id.
func lossFault(id msgIdentity, occ int32) sim.Fault {
	return sim.Fault{Kind: sim.ChoiceLoss, Node: id.from, Peer: id.to, Msg: id.kind, Op: id.op, Attempt: id.attempt,
		Point: 0, Occurrence: occ, Value: 1}
}

// result is one finished run as the TUI sees it: the trace and the
// outcome, plus indexes derived from the trace alone.
type result struct {
	topo    *sim.Topology
	observe sim.Observation        // what the verdicts count: the observed sinks
	words   scenarios.OutcomeWords // the scenario's words for none, once and many effects
	events  []sim.Event
	lines   []string // report.Describe of every event
	outcome *sim.Outcome
	faults  []sim.Fault // the faults the run took (recorded, or the plan)
	sendOf  map[uint32]int
	occ     []int32 // for an EvSend: its occurrence among loss choices of its identity; else 0
	lossy   map[[2]sim.NodeID]bool
	applied map[sim.Fault]bool // plan faults the run hit (what-ifs only)
	nth     []int              // for an observed effect: which effect of its operation it is; else 0
	viol    []violation        // where the lesson shows, in trace order
	keys    []eventKey         // every event's identity, to find it again in another run
	err     error
}

// probe wraps a chooser and notes which links were asked about loss and
// which loss faults were taken, so a what-if can say why a drop did not
// apply.
type probe struct {
	inner sim.Chooser
	seen  map[msgIdentity]int32
	lossy map[[2]sim.NodeID]bool
	taken map[sim.Fault]bool
}

func newProbe(inner sim.Chooser) *probe {
	return &probe{inner: inner, seen: map[msgIdentity]int32{}, lossy: map[[2]sim.NodeID]bool{}, taken: map[sim.Fault]bool{}}
}

// Choose implements sim.Chooser.
func (p *probe) Choose(c sim.Choice) int {
	v := p.inner.Choose(c)
	if c.Kind != sim.ChoiceLoss {
		return v
	}
	p.lossy[[2]sim.NodeID{c.Node, c.Peer}] = true
	id := msgIdentity{c.Node, c.Peer, c.Msg, c.Op, c.Attempt}
	p.seen[id]++
	if v != 0 {
		p.taken[lossFault(id, p.seen[id])] = true
	}
	return v
}

// simulate runs spec on its seed, recording the faults the random run took.
func simulate(spec runSpec) result {
	rec := sim.NewRecording(sim.NewRandom(spec.seed))
	p := newProbe(rec)
	r := execute(spec, spec.settings(), p)
	r.faults = rec.Faults
	r.lossy = p.lossy
	return r
}

// simulateWhatIf replays plan on spec: every fault comes from the plan, the
// jitter from the seed, and every request and response link offers loss.
// With the plan the random run recorded, the trace is the random run's.
func simulateWhatIf(spec runSpec, plan []sim.Fault) result {
	p := newProbe(sim.NewScripted(plan, sim.NewJitter(spec.seed)))
	r := execute(spec, whatIfSettings(spec.settings()), p)
	r.faults = slices.Clone(plan)
	r.lossy = p.lossy
	r.applied = p.taken
	return r
}

func execute(spec runSpec, set scenarios.Settings, ch sim.Chooser) result {
	run, err := runs.Execute(spec.sc, set, ch, runs.Options{})
	if err != nil {
		return result{err: err}
	}
	r := result{topo: run.Config.Topology, observe: run.Config.Observe, words: report.OutcomeWords(spec.sc.Outcome), events: run.Trace.Events, outcome: run.Outcome}
	r.index()
	return r
}

// index derives, from the trace only, each event's timeline line, which
// send every message came from, and each send's occurrence: the how-many-th
// loss choice of its identity it was. A send cut by a partition window was
// never offered a loss choice, so it does not count.
func (r *result) index() {
	r.lines = make([]string, len(r.events))
	r.sendOf = map[uint32]int{}
	r.occ = make([]int32, len(r.events))
	partitioned := map[uint32]bool{}
	for i := range r.events {
		e := &r.events[i]
		r.lines[i] = report.DescribeHere(r.topo, e)
		if e.Kind == sim.EvDrop && e.Reason == sim.DropPartition {
			partitioned[e.Msg.ID] = true
		}
	}
	seen := map[msgIdentity]int32{}
	for i := range r.events {
		e := &r.events[i]
		if e.Kind != sim.EvSend {
			continue
		}
		r.sendOf[e.Msg.ID] = i
		if partitioned[e.Msg.ID] {
			continue
		}
		id := identityOf(&e.Msg)
		seen[id]++
		r.occ[i] = seen[id]
	}
	r.nth = r.effectNth()
	r.viol = r.findViolations()
	r.keys = r.eventKeys()
}

// messageEvent reports whether events of kind k are about one sent
// message, so that "drop this message" means something on them.
func messageEvent(k sim.EventKind) bool {
	switch k {
	case sim.EvSend, sim.EvDeliver, sim.EvDrop, sim.EvDuplicate, sim.EvSlow, sim.EvLate:
		return true
	}
	return false
}

// dropTarget is the loss fault that drops the message of event i, and the
// index of the event that sent it; ok is false (and why says why) when
// event i is not about a message whose loss is a choice (a timer, a crash,
// a send cut by a partition).
func (r *result) dropTarget(i int) (f sim.Fault, send int, why string, ok bool) {
	if i < 0 || i >= len(r.events) {
		return f, 0, lang.T("tui.drop.no_event"), false
	}
	e := &r.events[i]
	if !messageEvent(e.Kind) {
		return f, 0, lang.T("tui.drop.not_message"), false
	}
	if e.Kind == sim.EvDrop && e.Reason != sim.DropLoss {
		return f, 0, lang.Tf("tui.drop.not_loss", map[string]any{"Reason": reasonText(e.Reason)}), false
	}
	s, found := r.sendOf[e.Msg.ID]
	if !found || r.occ[s] == 0 {
		return f, 0, lang.T("tui.drop.partition"), false
	}
	return lossFault(identityOf(&r.events[s].Msg), r.occ[s]), s, "", true
}

func reasonText(r sim.DropReason) string {
	switch r {
	case sim.DropPartition:
		return lang.T("tui.drop.reason_partition")
	case sim.DropDown:
		return lang.T("tui.drop.reason_down")
	}
	return r.String()
}

// planFaultOf is the loss fault behind event i when it is a drop by loss:
// the timeline marks the drops a what-if caused.
func (r *result) planFaultOf(i int) (sim.Fault, bool) {
	e := &r.events[i]
	if e.Kind != sim.EvDrop || e.Reason != sim.DropLoss {
		return sim.Fault{}, false
	}
	s, ok := r.sendOf[e.Msg.ID]
	if !ok || r.occ[s] == 0 {
		return sim.Fault{}, false
	}
	return lossFault(identityOf(&r.events[s].Msg), r.occ[s]), true
}

// verdictChange is one operation whose verdict a what-if changed.
type verdictChange struct {
	op       sim.OpID
	from, to sim.OpResult
}

// verdictChanges lists the operations whose verdict differs between base
// and cur, in operation order.
func verdictChanges(base, cur *sim.Outcome) []verdictChange {
	if base == nil || cur == nil {
		return nil
	}
	var out []verdictChange
	for i := range min(len(base.Ops), len(cur.Ops)) {
		if base.Ops[i].Verdict != cur.Ops[i].Verdict || base.Ops[i].Effects != cur.Ops[i].Effects {
			out = append(out, verdictChange{op: base.Ops[i].Op, from: base.Ops[i], to: cur.Ops[i]})
		}
	}
	return out
}

// msgShort names a message the way a what-if list does:
// "pay-response op-2 #1".
func msgShort(topo *sim.Topology, m *sim.Message) string {
	s := topo.MessageName(m.Kind)
	if m.Op != 0 {
		s += " " + m.Op.String()
	}
	if m.Attempt != 0 {
		s += fmt.Sprintf(" #%d", m.Attempt)
	}
	return s
}
