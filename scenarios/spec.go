package scenarios

import (
	"fmt"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// Scalar is a YAML scalar kept as text, with its position in the file, so
// that every later check can point at the line and column.
type Scalar struct {
	Text string
	Line int
	Col  int
	Set  bool // present in the file
	// Quoted is true for text written quoted ("3", '3') or as a block
	// (| or >): text, never a number or a boolean.
	Quoted bool
}

// UnmarshalYAML implements yaml.NodeUnmarshaler.
func (s *Scalar) UnmarshalYAML(node ast.Node) error {
	tok := node.GetToken()
	if tok != nil {
		s.Line, s.Col = tok.Position.Line, tok.Position.Column
	}
	switch n := node.(type) {
	case *ast.NullNode:
		s.Text = ""
	case *ast.LiteralNode: // a | or > block: decode it, without the marker
		var text string
		if err := yaml.NodeToValue(n, &text); err != nil {
			return &SpecError{Line: s.Line, Col: s.Col, Msg: err.Error()}
		}
		s.Text, s.Quoted = text, true
	case ast.ScalarNode:
		if str, ok := n.(*ast.StringNode); ok && str.Token != nil {
			s.Quoted = str.Token.Type == token.SingleQuoteType || str.Token.Type == token.DoubleQuoteType
		}
		s.Text = fmt.Sprint(n.GetValue())
		if tok != nil && (node.Type() == ast.FloatType || node.Type() == ast.IntegerType) {
			s.Text = tok.Value
		}
	default:
		return &SpecError{Line: s.Line, Col: s.Col, Msg: fmt.Sprintf("want a single value, found a %s", strings.ToLower(node.Type().String()))}
	}
	s.Set = true
	return nil
}

// SpecError is an error at a position of a scenario file.
type SpecError struct {
	File      string
	Line, Col int
	Msg       string
}

// Error formats the error as FILE:LINE:COL: message (FILE: message without a position).
func (e *SpecError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// fileSpec is the YAML scenario format. Every field is documented in
// README.md ("Scenario files"); unknown fields are rejected.
type fileSpec struct {
	Name       Scalar       `yaml:"name"`
	Topology   Scalar       `yaml:"topology"`
	Summary    Scalar       `yaml:"summary"`
	Semantics  []Scalar     `yaml:"semantics"`
	Ops        Scalar       `yaml:"ops"`
	Params     []paramSpec  `yaml:"params"`
	Faults     faultSpec    `yaml:"faults"`
	Nodes      []nodeSpec   `yaml:"nodes"`
	Links      []linkSpec   `yaml:"links"`
	Observe    observeSpec  `yaml:"observe"`
	Invariants []Scalar     `yaml:"invariants"`
	Metrics    []Scalar     `yaml:"metrics"`
	Expect     []expectSpec `yaml:"expect"`
	Lesson     lessonSpec   `yaml:"lesson"`
	Explore    exploreSpec  `yaml:"explore"`
	Sweep      sweepSpec    `yaml:"sweep"`
	Budget     budgetSpec   `yaml:"budget"`
}

type paramSpec struct {
	Name    Scalar   `yaml:"name"`
	Type    Scalar   `yaml:"type"` // enum | duration | int
	Default Scalar   `yaml:"default"`
	Values  []Scalar `yaml:"values"`
	Min     Scalar   `yaml:"min"`
	Max     Scalar   `yaml:"max"`
	Doc     Scalar   `yaml:"doc"`
}

// faultSpec maps a setting of sim.FaultKinds ("ack-loss", "pause-ms") to
// its value; the loader rejects any other key.
type faultSpec map[string]Scalar

type nodeSpec struct {
	Name    Scalar            `yaml:"name"`
	Role    Scalar            `yaml:"role"`
	With    map[string]Scalar `yaml:"with"`
	Crash   Scalar            `yaml:"crash"`   // true: the point faults (--crash, --pause) apply at this node's crash points
	Restart Scalar            `yaml:"restart"` // downtime after a crash
}

type linkSpec struct {
	From       Scalar       `yaml:"from"`
	To         Scalar       `yaml:"to"`
	Class      Scalar       `yaml:"class"` // request | response | reliable
	Delay      Scalar       `yaml:"delay"`
	Jitter     Scalar       `yaml:"jitter"`
	Both       Scalar       `yaml:"both"` // true: also the reverse direction, with the opposite class
	Partitions []windowSpec `yaml:"partitions"`
}

type windowSpec struct {
	From Scalar `yaml:"from"`
	To   Scalar `yaml:"to"`
}

type observeSpec struct {
	Origin    Scalar      `yaml:"origin"`
	Request   Scalar      `yaml:"request"`
	Processor Scalar      `yaml:"processor"`
	Sinks     []Scalar    `yaml:"sinks"`
	Outcome   outcomeSpec `yaml:"outcome"` // the effect in the user's words
	Refused   []Scalar    `yaml:"refused"` // final statuses that are the designed answer (400, 422, 503)
}

type expectSpec struct {
	Semantics Scalar            `yaml:"semantics"`
	Set       map[string]Scalar `yaml:"set"`
	Faults    *faultSpec        `yaml:"faults"`
	Ops       Scalar            `yaml:"ops"`
	Show      []Scalar          `yaml:"show"`
	Note      Scalar            `yaml:"note"`
	Explore   Scalar            `yaml:"explore"`  // max faults for an exhaustive check of this row (0 = none)
	Headline  Scalar            `yaml:"headline"` // true: the default `once run` shows this row too
	// Unprotected names the settings that switch off what makes the
	// row's every-run claims hold; Inherent says why none exists.
	Unprotected map[string]Scalar `yaml:"unprotected"`
	Inherent    Scalar            `yaml:"inherent"`
}

type lessonSpec struct {
	Story Scalar            `yaml:"story"`
	Watch Scalar            `yaml:"watch"`
	Why   map[string]Scalar `yaml:"why"`
	Fix   Scalar            `yaml:"fix"`
	Try   []Scalar          `yaml:"try"`
}

type exploreSpec struct {
	Ops       Scalar `yaml:"ops"`
	MaxFaults Scalar `yaml:"max-faults"`
	// MaxPreemptions bounds the interleavings explored per schedule.
	MaxPreemptions Scalar `yaml:"max-preemptions"`
	Faults         Scalar `yaml:"faults"`
	Property       Scalar `yaml:"property"` // exactly-once (default) | promise
}

type budgetSpec struct {
	Events Scalar `yaml:"events"`
	Time   Scalar `yaml:"time"`
}
