package sim

import (
	"slices"
	"strings"
)

// Registry holds the kinds a world and its renderers name: the fault kinds
// a user sets, the engine's choice kinds and the event kinds of a trace.
// It is a value: Builtin returns a fresh copy of the built-in kinds, a test
// or a build extends its copy (AddLinkFault, AddEventKind), and a world
// uses the registry its topology carries (Topology.Kinds) — no package
// variable changes, and two registries never share a kind. A registry must
// not change once a world has been built from it.
//
// The package-level tables (FaultKinds, ChoiceKind.String, EventKind.Spec…)
// are the built-in registry's, never extended.
type Registry struct {
	faults  []FaultKindSpec
	choices []choiceKindSpec
	events  []EventKindSpec
	// Derived from the tables on every change: the link kinds in the
	// order a link asks them, and the event that records each hold kind.
	linkKinds  []ChoiceKind
	holdEvents [MaxChoiceKinds]EventKind
}

// builtin is the registry of the built-in kinds; nothing extends it
// (Builtin hands out copies).
var builtin = newRegistry(FaultKinds, choiceKinds, eventKinds)

func newRegistry(faults []FaultKindSpec, choices []choiceKindSpec, events []EventKindSpec) *Registry {
	r := &Registry{faults: faults, choices: choices, events: events}
	r.derive()
	return r
}

// Builtin returns a new registry of the built-in kinds, the caller's own
// to extend.
func Builtin() *Registry { return builtin.Clone() }

// Clone returns a copy of r that shares nothing with it (a nil r is the
// built-in registry).
func (r *Registry) Clone() *Registry {
	r = r.or()
	return newRegistry(slices.Clone(r.faults), slices.Clone(r.choices), slices.Clone(r.events))
}

// or returns r, or the built-in registry when r is nil: a topology or a
// checker without a registry names the built-in kinds.
func (r *Registry) or() *Registry {
	if r == nil {
		return builtin
	}
	return r
}

func (r *Registry) derive() {
	r.linkKinds = nil
	for i := range r.choices {
		if r.choices[i].link != NotOnLink {
			r.linkKinds = append(r.linkKinds, ChoiceKind(i))
		}
	}
	r.holdEvents = [MaxChoiceKinds]EventKind{}
	for e := 1; e < len(r.events); e++ {
		if f := r.events[e].Fault; f != 0 && r.choices[f].link == LinkHold {
			r.holdEvents[f] = EventKind(e)
		}
	}
}

// LinkFaultSpec describes a link fault kind a test or a build adds to a
// registry with AddLinkFault: a message on a covered link is held for Hold
// before it arrives, as slow and late are. Everything else follows from
// the registry's tables: the setting named Name, the explore kind, the
// choice asked on every covered send, the event that records a hit
// (rendered in every view by its class, ClassInFlight, with Name as its
// label), its fault count (Past) and its JSON keys.
type LinkFaultSpec struct {
	Name string // the setting, plan, trace and label name ("stall")
	// JSON is the key of its probability in JSON output; "" means Name
	// with '-' as '_'.
	JSON string
	// Past is its word in fault counts ("2 stalled"); the locale files
	// may translate it as fault.<Past>.
	Past  string
	Help  string // what its probability means (flag help)
	Links Links  // Requests, Responses or AllLinks
	Hold  Time   // how long a message it hits is held, in ticks (> 0)
	// ExploreDefault: explore enumerates the kind unless told otherwise.
	ExploreDefault bool
}

// AddLinkFault adds a link fault kind to r's fault table, with its engine
// choice kind and the event kind that records it, and returns it. A
// nameless or taken name, a kind that is not on a message link, a hold of
// 0, or one kind too many panics: a mistake of the program.
func (r *Registry) AddLinkFault(spec LinkFaultSpec) FaultKind {
	if r == nil || r == builtin {
		panic("sim: AddLinkFault on the built-in registry: extend a copy (sim.Builtin())")
	}
	switch {
	case spec.Name == "" || spec.Past == "":
		panic("sim: AddLinkFault needs a name and a past participle")
	case spec.Links != Requests && spec.Links != Responses && spec.Links != AllLinks:
		panic("sim: AddLinkFault: " + spec.Name + " must be on request, response or all links")
	case spec.Hold <= 0:
		panic("sim: AddLinkFault: " + spec.Name + " needs a hold")
	case r.IsFaultSetting(spec.Name):
		panic("sim: fault kind " + spec.Name + " added twice")
	case len(r.faults) >= MaxFaultKinds || len(r.choices) >= MaxChoiceKinds:
		panic("sim: too many fault kinds for " + spec.Name)
	}
	if _, ok := r.ParseChoiceKind(spec.Name); ok {
		panic("sim: choice kind " + spec.Name + " added twice")
	}
	if spec.JSON == "" {
		spec.JSON = strings.ReplaceAll(spec.Name, "-", "_")
	}
	choice := ChoiceKind(len(r.choices))
	r.choices = append(r.choices, choiceKindSpec{name: spec.Name, past: spec.Past, fault: true, link: LinkHold})
	r.AddEventKind(EventKindSpec{Name: spec.Name, Fault: choice, Class: ClassInFlight})
	r.faults = append(r.faults, FaultKindSpec{Name: spec.Name, JSON: spec.JSON, Choice: choice, Links: spec.Links,
		Help: spec.Help, ExploreDefault: spec.ExploreDefault, Hold: spec.Hold})
	return FaultKind(len(r.faults) - 1)
}

// AddEventKind adds an event kind to r and returns it: a kind added this
// way renders in every view by its class and its name. A nameless,
// classless or already-taken name panics.
func (r *Registry) AddEventKind(spec EventKindSpec) EventKind {
	if r == nil || r == builtin {
		panic("sim: AddEventKind on the built-in registry: extend a copy (sim.Builtin())")
	}
	if spec.Name == "" || spec.Class == ClassNone || spec.Class >= NumRenderClasses {
		panic("sim: AddEventKind needs a name and a render class")
	}
	for _, s := range r.events {
		if s.Name == spec.Name {
			panic("sim: event kind " + spec.Name + " added twice")
		}
	}
	if len(r.events) > 255 {
		panic("sim: too many event kinds")
	}
	r.events = append(r.events, spec)
	r.derive()
	return EventKind(len(r.events) - 1)
}

// FaultKinds returns r's fault table, indexed by FaultKind (read only).
func (r *Registry) FaultKinds() []FaultKindSpec { return r.or().faults }

// FaultKind returns fault kind k's entry.
func (r *Registry) FaultKind(k FaultKind) *FaultKindSpec { return &r.or().faults[k] }

// ParseFaultKind finds a fault kind of r by name.
func (r *Registry) ParseFaultKind(name string) (FaultKind, bool) {
	for k, s := range r.or().faults {
		if s.Name == name {
			return FaultKind(k), true
		}
	}
	return 0, false
}

// FaultKindNames lists r's fault kinds' names in table order.
func (r *Registry) FaultKindNames() []string {
	var out []string
	for _, s := range r.or().faults {
		out = append(out, s.Name)
	}
	return out
}

// IsFaultSetting reports whether name is a setting of r's fault table: a
// kind's name or its duration's.
func (r *Registry) IsFaultSetting(name string) bool {
	for _, s := range r.or().faults {
		if s.Name == name || (s.Duration != nil && s.Duration.Name == name) {
			return true
		}
	}
	return false
}

// NumChoiceKinds is one past r's largest choice kind.
func (r *Registry) NumChoiceKinds() ChoiceKind { return ChoiceKind(len(r.or().choices)) }

// ChoiceName is choice kind k's name ("loss", "crash"…).
func (r *Registry) ChoiceName(k ChoiceKind) string {
	if c := r.or().choices; k > 0 && int(k) < len(c) {
		return c[k].name
	}
	return "unknown"
}

// ParseChoiceKind is the inverse of ChoiceName.
func (r *Registry) ParseChoiceKind(name string) (ChoiceKind, bool) {
	for i, c := range r.or().choices {
		if i > 0 && c.name == name {
			return ChoiceKind(i), true
		}
	}
	return 0, false
}

// Past is choice kind k's label in fault counts ("lost", "paused").
func (r *Registry) Past(k ChoiceKind) string {
	if c := r.or().choices; int(k) < len(c) {
		return c[k].past
	}
	return "unknown"
}

// OnLink says what choice kind k does to a message on a link.
func (r *Registry) OnLink(k ChoiceKind) LinkEffect {
	if c := r.or().choices; int(k) < len(c) {
		return c[k].link
	}
	return NotOnLink
}

// IsReorder reports whether k is an interleaving (ChoiceKind.IsReorder).
func (r *Registry) IsReorder(k ChoiceKind) bool {
	c := r.or().choices
	return int(k) < len(c) && c[k].reorder
}

// FaultChoiceKinds lists r's choice kinds that are faults, in table order.
func (r *Registry) FaultChoiceKinds() []ChoiceKind {
	var out []ChoiceKind
	for i, c := range r.or().choices {
		if c.fault {
			out = append(out, ChoiceKind(i))
		}
	}
	return out
}

// AllFaultKinds is the set of r's fault choice kinds.
func (r *Registry) AllFaultKinds() KindSet {
	var s KindSet
	for _, k := range r.FaultChoiceKinds() {
		s = s.With(k)
	}
	return s
}

// LinkChoiceKinds lists r's link fault kinds in table order: the order a
// link asks them of the Chooser.
func (r *Registry) LinkChoiceKinds() []ChoiceKind { return r.or().linkKinds }

// HoldEvent returns the event kind that records a hold of link kind k.
func (r *Registry) HoldEvent(k ChoiceKind) EventKind { return r.or().holdEvents[k] }

// NumEventKinds is one past r's largest event kind.
func (r *Registry) NumEventKinds() EventKind { return EventKind(len(r.or().events)) }

// EventSpec returns event kind k's entry (a zero entry for a kind r lacks).
func (r *Registry) EventSpec(k EventKind) EventKindSpec {
	if e := r.or().events; int(k) < len(e) {
		return e[k]
	}
	return EventKindSpec{}
}

// EventClass is event kind k's render class.
func (r *Registry) EventClass(k EventKind) RenderClass { return r.EventSpec(k).Class }

// EventName is event kind k's name ("unknown" for a kind r lacks).
func (r *Registry) EventName(k EventKind) string {
	if e := r.or().events; k > 0 && int(k) < len(e) {
		return e[k].Name
	}
	return "unknown"
}
