package sim

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// This file is the one table of fault kinds. Every surface that names a
// fault — command-line flags, scenario files, plan files, expectations,
// explore --faults, sweep --vary, every report and the TUI — iterates
// FaultKinds (what a user sets) or the choice-kind table below (what the
// engine decides), and no other file spells a kind's name. Adding a kind is
// one entry here plus its hook in the engine (context.go) or the network.

// FaultKind is a fault a user names and gives a probability: --ack-loss
// 0.1, "faults: {ack-loss: 0.1}" in a scenario file, "faults ack-loss=0.1"
// in a plan, "--faults ack-loss" in explore, "--vary ack-loss=0:0.5:0.1" in
// sweep. Several fault kinds can map to one engine ChoiceKind: ack-loss is
// a loss on the way back.
type FaultKind uint8

// The fault kinds, in the order every surface lists them.
const (
	FaultLoss FaultKind = iota
	FaultAckLoss
	FaultDup
	FaultSlow
	FaultCrash
	FaultPause
	FaultLate
	FaultPreempt
	numBuiltinFaultKinds
)

// MaxFaultKinds bounds the fault kinds a Registry can have (the built-in
// ones and those AddLinkFault adds): the per-kind arrays of a fault
// profile are this long.
const MaxFaultKinds = 16

// NumFaultKinds is the number of built-in fault kinds (a Registry may
// have more).
const NumFaultKinds = numBuiltinFaultKinds

// Links says where the engine offers a fault kind's choice.
type Links uint8

// Where a fault is offered.
const (
	AtPoints  Links = iota // at the crash points of the nodes a scenario marks crashable
	Requests               // on every send over a request link
	Responses              // on every send over a response link
	AllLinks               // on every send over a request or response link
	AtStores               // on every reply of a store node (an interleaving, not a fault)
)

// Covers reports whether a message link of class request (response=false)
// or response (response=true) carries this kind.
func (l Links) Covers(response bool) bool {
	switch l {
	case AllLinks:
		return true
	case Requests:
		return !response
	case Responses:
		return response
	}
	return false
}

// FaultKindSpec describes one fault kind for every surface. Its probability
// is in [0,1] and 0 (the default) means the fault never happens.
type FaultKindSpec struct {
	Name   string     // flag, YAML field, plan "faults" key, --faults and --vary name, report label
	JSON   string     // key of its probability in JSON output
	Choice ChoiceKind // the engine choice it is asked as
	Links  Links      // where the choice is offered
	Help   string     // what the probability means (flag help)
	// ExploreDefault: explore enumerates the kind unless told otherwise.
	ExploreDefault bool
	// Duration is the kind's duration setting, nil for instant faults.
	Duration *DurationSetting
	// Hold is how long a message the kind hits is held when the kind has
	// no duration setting (slow: past any retry timeout of the catalog).
	Hold Time
}

// DurationSetting is the length of a fault that lasts (a pause), in
// ticks (milliseconds of virtual time): its unit is in its name.
type DurationSetting struct {
	Name    string // flag, YAML field, plan "faults" key and --vary name
	JSON    string // key in JSON output
	Help    string
	Default Time // what 0 in a FaultProfile means
	Min     Time
	Max     Time
}

// FaultKinds is the built-in table, indexed by FaultKind: the kinds of
// Builtin(). Read it, never change it; a test or a build that adds a kind
// adds it to a Registry value (Registry.AddLinkFault).
var FaultKinds = builtinFaultKinds()

func builtinFaultKinds() []FaultKindSpec {
	return []FaultKindSpec{
		FaultLoss: {Name: "loss", JSON: "loss", Choice: ChoiceLoss, Links: Requests, ExploreDefault: true,
			Help: "probability that a request or delivery is lost"},
		FaultAckLoss: {Name: "ack-loss", JSON: "ack_loss", Choice: ChoiceLoss, Links: Responses, ExploreDefault: true,
			Help: "probability that a response or acknowledgement is lost"},
		FaultDup: {Name: "dup", JSON: "duplicate", Choice: ChoiceDuplicate, Links: AllLinks,
			Help: "probability that a message is delivered twice"},
		FaultSlow: {Name: "slow", JSON: "slow", Choice: ChoiceSlow, Links: AllLinks, Hold: 5_000,
			Help: "probability that a message is overtaken by the retry waiting for it"},
		FaultCrash: {Name: "crash", JSON: "crash", Choice: ChoiceCrash, Links: AtPoints, ExploreDefault: true,
			Help: "probability that the service/consumer crashes at each crash point"},
		FaultPause: {Name: "pause", JSON: "pause", Choice: ChoicePause, Links: AtPoints,
			Help: "probability that the service/consumer freezes at each crash point, keeping its state",
			Duration: &DurationSetting{Name: "pause-ms", JSON: "pause_ms", Default: 5_000, Min: 1, Max: 3_600_000,
				Help: "how long a paused node stays frozen, in milliseconds"}},
		FaultLate: {Name: "late", JSON: "late", Choice: ChoiceLate, Links: AllLinks,
			Help: "probability that a message is held past a horizon (--late-ms) before it arrives",
			Duration: &DurationSetting{Name: "late-ms", JSON: "late_ms", Default: 60_000, Min: 1, Max: 3_600_000,
				Help: "how long a late message is held, in milliseconds: the horizon it arrives after"}},
		FaultPreempt: {Name: "preempt", JSON: "preempt", Choice: ChoicePreempt, Links: AtStores,
			Help: "probability that a handler is descheduled after a store operation, so other handlers run before its next step",
			Duration: &DurationSetting{Name: "preempt-ms", JSON: "preempt_ms", Default: 50, Min: 1, Max: 3_600_000,
				Help: "how long a descheduled handler waits for its store reply, in milliseconds"}},
	}
}

// String returns the kind's name.
func (k FaultKind) String() string {
	if k < NumFaultKinds {
		return FaultKinds[k].Name
	}
	return "unknown"
}

// Spec returns the kind's table entry.
func (k FaultKind) Spec() *FaultKindSpec { return &FaultKinds[k] }

// ParseFaultKind finds a fault kind by name.
func ParseFaultKind(name string) (FaultKind, bool) {
	for k := range FaultKinds {
		if FaultKinds[k].Name == name {
			return FaultKind(k), true
		}
	}
	return 0, false
}

// ParseFaultDuration finds the fault kind whose duration setting is called
// name ("pause-ms").
func ParseFaultDuration(name string) (FaultKind, bool) {
	for k := range FaultKinds {
		if d := FaultKinds[k].Duration; d != nil && d.Name == name {
			return FaultKind(k), true
		}
	}
	return 0, false
}

// FaultKindNames lists every kind's name in table order.
func FaultKindNames() []string {
	out := make([]string, NumFaultKinds)
	for k := range FaultKinds {
		out[k] = FaultKinds[k].Name
	}
	return out
}

// ExploreDefaultKinds is the comma list explore enumerates by default.
func ExploreDefaultKinds() string {
	var out []string
	for k := range FaultKinds {
		if FaultKinds[k].ExploreDefault {
			out = append(out, FaultKinds[k].Name)
		}
	}
	return strings.Join(out, ",")
}

// FaultProfile is what a user sets: a probability per fault kind and the
// duration of each kind that lasts. The zero value means no faults.
type FaultProfile struct {
	Probability [MaxFaultKinds]float64
	Duration    [MaxFaultKinds]Time // 0 = the kind's default
}

// DurationOf returns how long a fault of kind k lasts (its setting or its
// default); 0 for instant kinds.
func (p *FaultProfile) DurationOf(k FaultKind) Time { return builtin.DurationOf(p, k) }

// DurationOf returns how long a fault of r's kind k lasts in profile p (its
// setting or its default); 0 for instant kinds.
func (r *Registry) DurationOf(p *FaultProfile, k FaultKind) Time {
	d := r.or().faults[k].Duration
	if d == nil {
		return 0
	}
	if p.Duration[k] > 0 {
		return p.Duration[k]
	}
	return d.Default
}

// HoldOf returns how long a message a link fault of kind k hits is held:
// its duration (setting or default), or its fixed Hold.
func (p *FaultProfile) HoldOf(k FaultKind) Time { return builtin.HoldOf(p, k) }

// HoldOf returns how long a message r's link fault kind k hits is held in
// profile p: its duration (setting or default), or its fixed Hold.
func (r *Registry) HoldOf(p *FaultProfile, k FaultKind) Time {
	if s := &r.or().faults[k]; s.Duration == nil {
		return s.Hold
	}
	return r.DurationOf(p, k)
}

// Validate reports the first setting out of range, naming it as a flag.
func (p *FaultProfile) Validate() error { return builtin.Validate(p) }

// Validate reports the first setting of p out of range, over r's kinds.
func (r *Registry) Validate(p *FaultProfile) error {
	for k := range r.or().faults {
		s := &r.or().faults[k]
		if v := p.Probability[k]; math.IsNaN(v) || v < 0 || v > 1 {
			return fmt.Errorf("--%s %v: a probability must be within [0,1]", s.Name, v)
		}
		if p.Duration[k] != 0 {
			if err := s.CheckDuration(p.Duration[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

// CheckDuration reports a duration outside the kind's range.
func (s *FaultKindSpec) CheckDuration(d Time) error {
	if s.Duration == nil {
		return fmt.Errorf("%s has no duration", s.Name)
	}
	if d < s.Duration.Min || d > s.Duration.Max {
		return fmt.Errorf("--%s %d: want milliseconds in [%d, %d]", s.Duration.Name, d, s.Duration.Min, s.Duration.Max)
	}
	return nil
}

// ApplyToNode sets the point faults (crash, pause) of a crashable node
// from the profile.
func (p *FaultProfile) ApplyToNode(spec *NodeSpec) {
	spec.CrashProbability = p.Probability[FaultCrash]
	spec.PauseProbability = p.Probability[FaultPause]
	spec.PauseFor = p.DurationOf(FaultPause)
}

// ApplyToStore sets the interleaving choice of a store node from the
// profile: how often, and for how long, the handler waiting for one of its
// replies is descheduled.
func (p *FaultProfile) ApplyToStore(spec *NodeSpec) {
	spec.Store = true
	spec.PreemptProbability = p.Probability[FaultPreempt]
	spec.PreemptFor = p.DurationOf(FaultPreempt)
}

// LinkEffect says what a message fault kind does to a message on a link.
type LinkEffect uint8

// What a link fault does.
const (
	NotOnLink LinkEffect = iota // not a link fault (a point fault, jitter, an interleaving)
	LinkDrop                    // the message is dropped (DropLoss)
	LinkCopy                    // a second copy is delivered
	LinkHold                    // the message is held for the link's hold of the kind
)

// choiceKindSpec describes one engine choice kind.
type choiceKindSpec struct {
	link    LinkEffect // what it does to a message on a link (network.Link asks it)
	name    string     // in plan lines and traces: "loss from=… to=…", "pause node=… point=…"
	past    string     // in fault counts: "2 lost, 1 paused"
	fault   bool       // the non-default alternative is a fault (costs 1)
	atPoint bool       // identified by node and crash point, not by a message's link
	reorder bool       // an interleaving: costs the explorer's preemption budget, not its fault budget
}

// choiceKinds is the engine's built-in table, indexed by ChoiceKind (a
// Registry value copies it and may extend its copy).
var choiceKinds = []choiceKindSpec{
	ChoiceLoss:      {name: "loss", past: "lost", fault: true, link: LinkDrop},
	ChoiceDuplicate: {name: "duplicate", past: "duplicated", fault: true, link: LinkCopy},
	ChoiceSlow:      {name: "slow", past: "slow", fault: true, link: LinkHold},
	ChoiceCrash:     {name: "crash", past: "crashed", fault: true, atPoint: true},
	ChoiceJitter:    {name: "jitter"},
	ChoicePause:     {name: "pause", past: "paused", fault: true, atPoint: true},
	ChoiceLate:      {name: "late", past: "late", fault: true, link: LinkHold},
	ChoicePreempt:   {name: "preempt", past: "preempted", fault: true, reorder: true},
}

// MaxChoiceKinds bounds the choice kinds (a KindSet holds one bit per
// kind): the per-kind arrays of a link and of fault counts are this long.
const MaxChoiceKinds = 16

// NumChoiceKinds is one past the largest built-in choice kind (a
// Registry may have more).
const NumChoiceKinds = numBuiltinChoiceKinds

// String returns the kind's name as used in fault plans ("loss", "crash"…).
func (k ChoiceKind) String() string {
	if k > 0 && int(k) < len(choiceKinds) {
		return choiceKinds[k].name
	}
	return "unknown"
}

// ParseChoiceKind is the inverse of String.
func ParseChoiceKind(s string) (ChoiceKind, bool) {
	for i := range choiceKinds {
		if i > 0 && choiceKinds[i].name == s {
			return ChoiceKind(i), true
		}
	}
	return 0, false
}

// IsFault reports whether choosing a non-zero alternative is a fault.
func (k ChoiceKind) IsFault() bool { return int(k) < len(choiceKinds) && choiceKinds[k].fault }

// IsReorder reports whether the kind is an interleaving: the explorer
// charges it to its preemption budget instead of its fault budget.
func (k ChoiceKind) IsReorder() bool { return int(k) < len(choiceKinds) && choiceKinds[k].reorder }

// AtPoint reports whether the choice is asked at a node's crash point (so
// a plan names it with node= and point=) rather than on a message's link.
func (k ChoiceKind) AtPoint() bool { return int(k) < len(choiceKinds) && choiceKinds[k].atPoint }

// OnLink says what the kind does to a message on a link.
func (k ChoiceKind) OnLink() LinkEffect {
	if k < NumChoiceKinds {
		return choiceKinds[k].link
	}
	return NotOnLink
}

// LinkChoiceKinds lists the built-in link fault kinds in table order
// (loss, duplicate, slow, late): the order network.Link asks them in.
func LinkChoiceKinds() []ChoiceKind { return builtin.linkKinds }

// HoldEvent returns the event kind that records a hold of built-in link
// kind k (EvSlow, EvLate), from the event table.
func HoldEvent(k ChoiceKind) EventKind { return builtin.holdEvents[k] }

// Past is the kind's label in fault counts ("lost", "paused").
func (k ChoiceKind) Past() string {
	if int(k) < len(choiceKinds) {
		return choiceKinds[k].past
	}
	return "unknown"
}

// FaultChoiceKinds lists the choice kinds that are faults, in table order.
func FaultChoiceKinds() []ChoiceKind {
	var out []ChoiceKind
	for i := range choiceKinds {
		if choiceKinds[i].fault {
			out = append(out, ChoiceKind(i))
		}
	}
	return out
}

// FaultChoiceNames lists the names of the fault choice kinds (what a plan
// line can start with).
func FaultChoiceNames() []string {
	var out []string
	for _, k := range FaultChoiceKinds() {
		out = append(out, k.String())
	}
	return out
}

// KindSet is a set of choice kinds, one bit per kind (MaxChoiceKinds).
type KindSet uint16

// Has reports whether k is in the set.
func (s KindSet) Has(k ChoiceKind) bool { return s&(1<<k) != 0 }

// With returns the set plus k.
func (s KindSet) With(k ChoiceKind) KindSet { return s | 1<<k }

// AllFaultKinds enumerates every built-in fault choice kind.
var AllFaultKinds = builtin.AllFaultKinds()

// MarshalJSON writes the profile as an object keyed by each kind's JSON
// name, in table order, with each duration setting after its kind.
func (p FaultProfile) MarshalJSON() ([]byte, error) { return builtin.MarshalProfile(p) }

// MarshalProfile writes p as FaultProfile.MarshalJSON does, over r's
// fault kinds.
func (r *Registry) MarshalProfile(p FaultProfile) ([]byte, error) {
	b := []byte{'{'}
	field := func(key string, v any) error {
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, key)
		b = append(b, ':')
		j, err := json.Marshal(v)
		b = append(b, j...)
		return err
	}
	for k, s := range r.FaultKinds() {
		if err := field(s.JSON, p.Probability[k]); err != nil {
			return nil, fmt.Errorf("sim: fault profile %s: %w", s.Name, err)
		}
		if s.Duration != nil {
			if err := field(s.Duration.JSON, int64(r.DurationOf(&p, FaultKind(k)))); err != nil {
				return nil, fmt.Errorf("sim: fault profile %s: %w", s.Duration.Name, err)
			}
		}
	}
	return append(b, '}'), nil
}

// FaultSettingNames lists every name a fault profile takes: each kind's
// name, and after it its duration setting, if any ("pause", "pause-ms").
func FaultSettingNames() []string { return builtin.FaultSettingNames() }

// FaultSettingNames lists the settings of r's fault table: each kind's
// name, each duration setting after its kind.
func (r *Registry) FaultSettingNames() []string {
	var out []string
	for _, s := range r.or().faults {
		out = append(out, s.Name)
		if d := s.Duration; d != nil {
			out = append(out, d.Name)
		}
	}
	return out
}

// IsFaultSetting reports whether name is a kind's name or a duration
// setting's name.
func IsFaultSetting(name string) bool {
	_, ok := ParseFaultKind(name)
	_, dur := ParseFaultDuration(name)
	return ok || dur
}

// Set sets the setting called name (a kind's probability, or a duration
// setting in milliseconds) from its text. The error says what is wrong
// with the value, without naming where it came from.
func (p *FaultProfile) Set(name, value string) error { return builtin.Set(p, name, value) }

// Set sets the setting of r's fault table called name in p, as
// FaultProfile.Set does.
func (r *Registry) Set(p *FaultProfile, name, value string) error {
	if k, ok := r.ParseFaultKind(name); ok {
		f, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || math.IsNaN(f) || f < 0 || f > 1 {
			return fmt.Errorf("%s: %q is not a probability in [0,1]", name, value)
		}
		p.Probability[k] = f
		return nil
	}
	if k, ok := ParseFaultDuration(name); ok { // only built-in kinds last
		d := FaultKinds[k].Duration
		n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if err != nil || n < int64(d.Min) || n > int64(d.Max) {
			return fmt.Errorf("%s: %q is not a whole number of milliseconds in [%d, %d]", name, value, d.Min, d.Max)
		}
		p.Duration[k] = Time(n)
		return nil
	}
	want := FaultSettingNames()
	for _, s := range r.or().faults[len(FaultKinds):] {
		want = append(want, s.Name)
	}
	return fmt.Errorf("unknown fault %q (want %s)", name, strings.Join(want, ", "))
}

// Value returns the setting called name as a number (a probability, or
// milliseconds), and whether name is a setting.
func (p *FaultProfile) Value(name string) (float64, bool) {
	if k, ok := ParseFaultKind(name); ok {
		return p.Probability[k], true
	}
	if k, ok := ParseFaultDuration(name); ok {
		return float64(p.DurationOf(k)), true
	}
	return 0, false
}

// Format returns the setting called name as text, as Set reads it.
func (p *FaultProfile) Format(name string) string {
	v, _ := p.Value(name)
	return strconv.FormatFloat(v, 'g', -1, 64)
}
