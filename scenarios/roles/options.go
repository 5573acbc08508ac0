package roles

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/oncesim/once/sim"
)

// Option is one option of a role, declared once: its name, default and
// documentation serve both `once roles` and the reading of the value (each
// option type has a Get method that falls back on the declared default).
type Option interface {
	// Describe returns the option's documentation.
	Describe() OptionDoc
	check() error
}

// OptionDoc documents one option of a role.
type OptionDoc struct {
	Name    string
	Kind    string // node | duration | int | enum | bool
	Default string // empty: required
	Values  []string
	Doc     string
}

// NodeOption names another node of the scenario (required).
type NodeOption struct{ Name, Doc string }

// Node declares a required node option.
func Node(name, doc string) NodeOption { return NodeOption{Name: name, Doc: doc} }

// Describe implements Option.
func (o NodeOption) Describe() OptionDoc { return OptionDoc{Name: o.Name, Kind: "node", Doc: o.Doc} }

func (o NodeOption) check() error { return nil }

// Get returns the id of the node the option names.
func (o NodeOption) Get(a *Args) sim.NodeID {
	v, ok := a.raw(o.Name)
	if !ok || v == "" {
		a.Fail(o.Name, "role %s needs option %s (a node name)", a.role.Name, o.Name)
		return 0
	}
	id, ok := a.nodes[v]
	if !ok {
		known := make([]string, 0, len(a.nodes))
		for n := range a.nodes {
			known = append(known, n)
		}
		sort.Strings(known)
		a.Fail(o.Name, "%s: no node named %q (nodes: %s)", o.Name, v, strings.Join(known, ", "))
	}
	return id
}

// OptionalNodeOption names another node, or "none" (the default).
type OptionalNodeOption struct{ Name, Doc string }

// OptionalNode declares a node option that may be absent or "none".
func OptionalNode(name, doc string) OptionalNodeOption {
	return OptionalNodeOption{Name: name, Doc: doc}
}

// Describe implements Option.
func (o OptionalNodeOption) Describe() OptionDoc {
	return OptionDoc{Name: o.Name, Kind: "node", Default: "none", Doc: o.Doc}
}

func (o OptionalNodeOption) check() error { return nil }

// Get returns the node the option names, or false when it is absent, empty
// or "none".
func (o OptionalNodeOption) Get(a *Args) (sim.NodeID, bool) {
	if v, ok := a.raw(o.Name); !ok || v == "" || v == "none" {
		return 0, false
	}
	return NodeOption(o).Get(a), true
}

// DurationOption is a virtual duration ("250ms", "1s").
type DurationOption struct {
	Name, Default, Doc string
	// Positive: at least one tick (an interval, a timeout).
	Positive bool
}

// Duration declares a duration option that may be 0.
func Duration(name, def, doc string) DurationOption {
	return DurationOption{Name: name, Default: def, Doc: doc}
}

// PositiveDuration declares a duration option of at least one tick.
func PositiveDuration(name, def, doc string) DurationOption {
	return DurationOption{Name: name, Default: def, Doc: doc, Positive: true}
}

// Describe implements Option.
func (o DurationOption) Describe() OptionDoc {
	return OptionDoc{Name: o.Name, Kind: "duration", Default: o.Default, Doc: o.Doc}
}

func (o DurationOption) check() error {
	d, err := ParseDuration(o.Default)
	if err == nil && o.Positive && d < 1 {
		err = fmt.Errorf("must be at least 1ms")
	}
	if err != nil {
		return fmt.Errorf("option %s: default: %w", o.Name, err)
	}
	return nil
}

// Get returns the duration the option sets, or its default.
func (o DurationOption) Get(a *Args) sim.Time {
	v, ok := a.raw(o.Name)
	if !ok {
		v = o.Default
	}
	d, err := ParseDuration(v)
	if err != nil {
		a.Fail(o.Name, "%s: %v", o.Name, err)
	}
	if o.Positive && d < 1 {
		a.Fail(o.Name, "%s: must be at least 1ms", o.Name)
	}
	return d
}

// IntOption is an integer within [Min, Max].
type IntOption struct {
	Name              string
	Default, Min, Max int64
	Doc               string
}

// Int declares an integer option.
func Int(name string, def, lo, hi int64, doc string) IntOption {
	return IntOption{Name: name, Default: def, Min: lo, Max: hi, Doc: doc}
}

// Describe implements Option.
func (o IntOption) Describe() OptionDoc {
	return OptionDoc{Name: o.Name, Kind: "int", Default: strconv.FormatInt(o.Default, 10), Doc: o.Doc}
}

func (o IntOption) check() error {
	if o.Default < o.Min || o.Default > o.Max {
		return fmt.Errorf("option %s: default %d is not in [%d, %d]", o.Name, o.Default, o.Min, o.Max)
	}
	return nil
}

// Get returns the integer the option sets, or its default.
func (o IntOption) Get(a *Args) int64 {
	v, ok := a.raw(o.Name)
	if !ok {
		return o.Default
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n < o.Min || n > o.Max {
		a.Fail(o.Name, "%s: %q is not an integer in [%d, %d]", o.Name, v, o.Min, o.Max)
		return o.Default
	}
	return n
}

// EnumOption is one of a fixed list of words.
type EnumOption struct {
	Name, Default string
	Values        []string
	Doc           string
}

// Enum declares an option that must be one of values.
func Enum(name, def string, values []string, doc string) EnumOption {
	return EnumOption{Name: name, Default: def, Values: values, Doc: doc}
}

// Describe implements Option.
func (o EnumOption) Describe() OptionDoc {
	return OptionDoc{Name: o.Name, Kind: "enum", Default: o.Default, Values: o.Values, Doc: o.Doc}
}

func (o EnumOption) check() error {
	if !slices.Contains(o.Values, o.Default) {
		return fmt.Errorf("option %s: default %q is not one of %s", o.Name, o.Default, strings.Join(o.Values, "|"))
	}
	return nil
}

// Get returns the word the option sets, or its default.
func (o EnumOption) Get(a *Args) string {
	v, ok := a.raw(o.Name)
	if !ok {
		v = o.Default
	}
	if slices.Contains(o.Values, v) {
		return v
	}
	a.Fail(o.Name, "%s: %q is not one of %s", o.Name, v, strings.Join(o.Values, "|"))
	return o.Default
}

// Is reports whether the option's value is want.
func (o EnumOption) Is(a *Args, want string) bool { return o.Get(a) == want }

// BoolOption is true or false.
type BoolOption struct {
	Name    string
	Default bool
	Doc     string
}

// Bool declares a true/false option.
func Bool(name string, def bool, doc string) BoolOption {
	return BoolOption{Name: name, Default: def, Doc: doc}
}

// Describe implements Option.
func (o BoolOption) Describe() OptionDoc {
	return OptionDoc{Name: o.Name, Kind: "bool", Default: strconv.FormatBool(o.Default), Doc: o.Doc}
}

func (o BoolOption) check() error { return nil }

// Get returns the truth value the option sets, or its default.
func (o BoolOption) Get(a *Args) bool {
	v, ok := a.raw(o.Name)
	if !ok {
		return o.Default
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		a.Fail(o.Name, "%s: %q is not true or false", o.Name, v)
		return o.Default
	}
	return b
}
