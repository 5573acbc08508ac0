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
// docs/formats.md ("Scenario files") and docs/scenario-files.md; unknown fields are rejected.
type fileSpec struct {
	Name       Scalar       `yaml:"name" required:"true" value:"word" doc:"the scenario's name: letters, digits and . _ + - (what once run takes)"`
	Topology   Scalar       `yaml:"topology" required:"true" value:"enum:topology" doc:"the system's shape, for grouping in once list"`
	Summary    Scalar       `yaml:"summary" value:"text" doc:"one line: what happens and why it matters"`
	Semantics  []Scalar     `yaml:"semantics" value:"enum:semantics" doc:"the semantics the scenario supports, in presentation order"`
	Ops        Scalar       `yaml:"ops" value:"int" doc:"the default number of operations of a run"`
	Params     []paramSpec  `yaml:"params" doc:"parameters a user sets with --set NAME=VALUE; a node option written $NAME takes its value"`
	Faults     faultSpec    `yaml:"faults" value:"faults" doc:"the default fault probabilities (0..1) and durations (milliseconds) of a run"`
	Nodes      []nodeSpec   `yaml:"nodes" doc:"the nodes: each a role with its options"`
	Links      []linkSpec   `yaml:"links" doc:"the directed links between nodes; a pair without a link cannot talk"`
	Observe    observeSpec  `yaml:"observe" doc:"where the checker counts attempts, invocations and effects"`
	Invariants []Scalar     `yaml:"invariants" value:"word" doc:"named properties checked over the whole trace (see once roles for the roles that declare them)"`
	Metrics    []Scalar     `yaml:"metrics" value:"word" doc:"named measurements folded over the trace"`
	Expect     []expectSpec `yaml:"expect" doc:"what the scenario must show, row by row; checked by the tests over 200 seeds and, with explore, exhaustively"`
	Lesson     lessonSpec   `yaml:"lesson" doc:"the text of once explain"`
	Explore    exploreSpec  `yaml:"explore" doc:"defaults of once explore for this scenario"`
	Sweep      sweepSpec    `yaml:"sweep" doc:"marks and rates drawn on once sweep's chart"`
	Budget     budgetSpec   `yaml:"budget" doc:"bounds of one run"`
	Live       liveSpec     `yaml:"live" doc:"how once live runs the scenario for real"`
}

type paramSpec struct {
	Name    Scalar   `yaml:"name" required:"true" value:"word" doc:"the parameter's name"`
	Type    Scalar   `yaml:"type" value:"enum:param-type" doc:"enum, duration or int"` // enum | duration | int
	Default Scalar   `yaml:"default" required:"true" value:"any" doc:"the value when --set does not give one"`
	Values  []Scalar `yaml:"values" value:"word" doc:"the allowed values of an enum"`
	Min     Scalar   `yaml:"min" value:"any" doc:"the smallest allowed value (int or duration)"`
	Max     Scalar   `yaml:"max" value:"any" doc:"the largest allowed value (int or duration; 0 or absent: no limit)"`
	Doc     Scalar   `yaml:"doc" value:"text" doc:"one line shown by once explain and in errors"`
}

// faultSpec maps a setting of sim.FaultKinds ("ack-loss", "pause-ms") to
// its value; the loader rejects any other key.
type faultSpec map[string]Scalar

type nodeSpec struct {
	Name    Scalar            `yaml:"name" required:"true" value:"word" doc:"the node's name, used by links, observe and other nodes' options"`
	Role    Scalar            `yaml:"role" required:"true" value:"enum:role" doc:"what the node does (once roles lists every role and its options)"`
	With    map[string]Scalar `yaml:"with" value:"role-options" doc:"the role's options; a value written $NAME is the parameter NAME"`
	Crash   Scalar            `yaml:"crash" value:"bool" doc:"true: the node's crash points obey --crash and --pause"` // true: the point faults (--crash, --pause) apply at this node's crash points
	Restart Scalar            `yaml:"restart" value:"duration" doc:"downtime after a crash"`                           // downtime after a crash
}

type linkSpec struct {
	From       Scalar       `yaml:"from" required:"true" value:"word" doc:"the sending node"`
	To         Scalar       `yaml:"to" required:"true" value:"word" doc:"the receiving node"`
	Class      Scalar       `yaml:"class" value:"enum:link-class" doc:"request (--loss applies), response (--ack-loss applies) or reliable (FIFO, no faults)"` // request | response | reliable
	Delay      Scalar       `yaml:"delay" value:"duration" doc:"one-way delay"`
	Jitter     Scalar       `yaml:"jitter" value:"duration" doc:"a random extra delay up to this much"`
	Both       Scalar       `yaml:"both" value:"bool" doc:"true: also the reverse link, with the opposite class"` // true: also the reverse direction, with the opposite class
	Partitions []windowSpec `yaml:"partitions" doc:"windows of virtual time in which the link delivers nothing"`
}

type windowSpec struct {
	From Scalar `yaml:"from" value:"duration" doc:"the window's start"`
	To   Scalar `yaml:"to" value:"duration" doc:"the window's end"`
}

type observeSpec struct {
	Origin    Scalar      `yaml:"origin" value:"word" doc:"the node whose sends of the request kind are attempts"`
	Request   Scalar      `yaml:"request" required:"true" value:"word" doc:"the message kind of a request"`
	Processor Scalar      `yaml:"processor" value:"word" doc:"the node whose deliveries are invocations"`
	Sinks     []Scalar    `yaml:"sinks" value:"word" doc:"where effects are counted (up to 4)"`
	Outcome   outcomeSpec `yaml:"outcome" doc:"the effect in the user's words, for reports"` // the effect in the user's words
	Refused   []Scalar    `yaml:"refused" value:"int" doc:"final HTTP statuses that are the designed answer (400, 422, 503): an operation that ends with one is refused as designed, not lost"`
	// InProgress: the answers that mean "still in flight, ask again".
	InProgress []Scalar `yaml:"in-progress" value:"int" doc:"HTTP statuses that tell the client its operation is still in flight (409): an operation whose last answer was one when the run finishes, with no effect, never completes (a liveness violation)"`
}

type expectSpec struct {
	Semantics Scalar            `yaml:"semantics" required:"true" value:"enum:semantics" doc:"the semantics of the row"`
	Set       map[string]Scalar `yaml:"set" value:"any-map" doc:"parameters of the row (as --set)"`
	Faults    *faultSpec        `yaml:"faults" value:"faults" doc:"the row's fault settings instead of the scenario's"`
	Ops       Scalar            `yaml:"ops" value:"int" doc:"the row's number of operations"`
	Show      []Scalar          `yaml:"show" value:"enum:claim" doc:"claims: =1, <=1, >=1 and invariants hold in every run; dup, lost and violation in some run"`
	Note      Scalar            `yaml:"note" value:"text" doc:"one line shown beside the row"`
	Explore   Scalar            `yaml:"explore" value:"int" doc:"also prove the every-run claims by exhaustive search with this many faults"` // max faults for an exhaustive check of this row (0 = none)
	Headline  Scalar            `yaml:"headline" value:"bool" doc:"true: the default once run shows this row too"`                            // true: the default `once run` shows this row too
	// Unprotected names the settings that switch off what makes the
	// row's every-run claims hold; Inherent says why none exists.
	Unprotected map[string]Scalar `yaml:"unprotected" value:"any-map" doc:"the settings that switch off what makes the every-run claims hold (the vacuity test breaks the row with them)"`
	Inherent    Scalar            `yaml:"inherent" value:"text" doc:"instead of unprotected: one line saying why the claims hold by the semantics alone"`
	// RateBound says why the row's every-run claims hold at its own fault
	// rates and not at every rate (a window a long enough run of faults
	// outlasts, a rate the faults set): once matrix --swarm runs such a
	// row at its own rates and says why.
	RateBound Scalar `yaml:"rate-bound" value:"text" doc:"one line: why the every-run claims hold at the row's own fault rates, not at any rate (a time window a long run of faults outlasts, a rate the faults set); once matrix --swarm runs the row at its own rates and prints the line"`
}

type lessonSpec struct {
	Story Scalar            `yaml:"story" value:"text" doc:"what happens, for a newcomer"`
	Watch Scalar            `yaml:"watch" value:"text" doc:"what to look at in the output"`
	Why   map[string]Scalar `yaml:"why" value:"text-by-semantics" doc:"per semantics: why it gives what it gives"`
	Fix   Scalar            `yaml:"fix" value:"text" doc:"what makes it right"`
	Try   []Scalar          `yaml:"try" value:"text" doc:"commands to run"`
	// Source, Follows and Scaled say what the model is faithful to.
	Source  Scalar       `yaml:"source" value:"text" doc:"one line: the document, KIP or source file of the real system the scenario follows (once explain cites it; docs/scenarios.md's **Source:** line is this text)"`
	Follows Scalar       `yaml:"follows" value:"text" doc:"one line: which version's behaviour the model follows where it changed between versions (Kafka 3.x, classic group protocol, transactions v1)"`
	Scaled  []scaledSpec `yaml:"scaled" doc:"the values scaled down or simplified from the real system: each with the value here, the real default and why (once explain prints them as a table)"`
}

// scaledSpec is one row of a lesson's scaled-values table.
type scaledSpec struct {
	Name  Scalar `yaml:"name" required:"true" value:"text" doc:"the real setting or behaviour (transaction.timeout.ms)"`
	Param Scalar `yaml:"param" value:"word" doc:"the scenario parameter it labels, if any (its default is the value here)"`
	Here  Scalar `yaml:"here" value:"text" doc:"the value or behaviour in this scenario (default: the parameter's default)"`
	Real  Scalar `yaml:"real" required:"true" value:"text" doc:"the real system's default or behaviour"`
	Why   Scalar `yaml:"why" required:"true" value:"text" doc:"why it is scaled or simplified"`
}

type exploreSpec struct {
	Ops       Scalar `yaml:"ops" value:"int" doc:"operations of a search"`
	MaxFaults Scalar `yaml:"max-faults" value:"int" doc:"the fault budget of a search"`
	// MaxPreemptions bounds the interleavings explored per schedule.
	MaxPreemptions Scalar `yaml:"max-preemptions" value:"int" doc:"the interleavings explored per schedule"`
	Faults         Scalar `yaml:"faults" value:"text" doc:"the fault kinds searched, comma-separated (e.g. loss,ack-loss,crash)"`
	Property       Scalar `yaml:"property" value:"enum:property" doc:"exactly-once (default) or promise (the semantics' own promise)"` // exactly-once (default) | promise
}

type liveSpec struct {
	Brokers []Scalar `yaml:"brokers" value:"enum:broker" doc:"the real brokers once live --broker runs the scenario on (redis, rabbitmq, nats, kfake); any other is refused"`
}

type budgetSpec struct {
	Events Scalar `yaml:"events" value:"int" doc:"the most events a run may process"`
	Time   Scalar `yaml:"time" value:"duration" doc:"the most virtual time a run may take"`
}
