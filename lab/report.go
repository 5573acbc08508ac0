package lab

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/oncesim/once/internal/termtext"
	"github.com/oncesim/once/report"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// Command is what a lab command line repeats besides the scenario's
// settings: the programs that play the nodes and how they are run.
type Command struct {
	Nodes    []string // NAME=COMMAND, as given with --node
	Twice    bool
	Replicas int
}

// Line is the command that reruns a lab run with sem.
func (c Command) Line(sc *scenarios.Scenario, sem sim.Semantics, seed uint64, set scenarios.Settings) string {
	var b strings.Builder
	fmt.Fprintf(&b, "once lab %s", runs.Ref(sc))
	for _, n := range c.Nodes {
		fmt.Fprintf(&b, " --node %q", n)
	}
	fmt.Fprintf(&b, " --semantics %s --seed %d --ops %d", sem.Alias(), seed, set.Ops)
	c.runFlags(&b)
	for _, f := range runs.FaultChanges(sc.Faults, set.Faults) {
		fmt.Fprintf(&b, " --%s %s", f.Name, f.Value)
	}
	for _, kv := range runs.SortedSets(set.Params) {
		fmt.Fprintf(&b, " --set %s", kv)
	}
	b.WriteString(runs.BudgetFlags(set))
	return b.String()
}

// ReplayLine is the command that replays a saved plan with the same nodes.
func (c Command) ReplayLine(plan string) string {
	var b strings.Builder
	b.WriteString("once lab")
	for _, n := range c.Nodes {
		fmt.Fprintf(&b, " --node %q", n)
	}
	c.runFlags(&b)
	fmt.Fprintf(&b, " --replay %s", plan)
	return b.String()
}

func (c Command) runFlags(b *strings.Builder) {
	if c.Twice {
		b.WriteString(" --twice")
	}
	if c.Replicas > 0 {
		fmt.Fprintf(b, " --replicas %d", c.Replicas)
	}
}

// NodeNames are the names of NAME=COMMAND specs.
func NodeNames(specs []string) []string {
	var out []string
	for _, s := range specs {
		name, _, _ := strings.Cut(s, "=")
		out = append(out, name)
	}
	return out
}

// Rejudge replaces a lab run's verdict (the semantics' bare promise) with
// the scenario row's: what `once matrix` judges for it.
func (j Judge) Rejudge(r *Result) {
	r.Outcome.Status, r.Outcome.Reason = j.VerdictReason(r.World)
	r.Outcome.Why = r.Outcome.Reason.String()
}

// WriteJudges names, before the report, the row each semantics was
// judged against, and what a row that expects a broken promise says.
func WriteJudges(w io.Writer, sems []sim.Semantics, judges map[sim.Semantics]Judge) {
	for _, sem := range sems {
		j := judges[sem]
		fmt.Fprintf(w, "judged against %s\n", termtext.Escape(j.Against()))
		if b := j.Broken(); b != "" {
			fmt.Fprintf(w, "  %s\n", termtext.Escape(b)) // the row's note, from a scenario file
		}
	}
}

// Counterexample shrinks a violating run's faults (fresh processes for
// every candidate) and describes the minimal run.
func (l *Lab) Counterexample(sem sim.Semantics, judge Judge, faults []sim.Fault, jitter func() sim.Chooser) (*report.Counterexample, error) {
	m, err := l.Minimize(sem, judge, faults, jitter)
	if err != nil {
		return nil, err
	}
	topo := m.Result.Config.Topology
	cex := &report.Counterexample{
		Cause: report.Cause(topo, m.Why, m.Plan), Steps: report.Steps(topo, m.Trace.Events),
		Digest: report.DigestString(m.Result.World.Digest()), FoundFaults: m.Found,
		Faults: make([]string, 0, len(m.Plan)),
	}
	for _, f := range m.Plan {
		cex.Faults = append(cex.Faults, scenarios.FaultLine(topo, f))
	}
	return cex, nil
}

// errorTail is how much of a failed node's stderr is shown with its
// error when --logs is off (with --logs, every incarnation's last 64 KiB
// were shown as it ended).
const errorTail = 4 << 10

// WriteStderrTail writes, before a node's one-line error, the end of what
// the failing incarnation wrote on stderr: most often its traceback.
func WriteStderrTail(w io.Writer, err error, logs bool) {
	var le *Error
	if logs || !errors.As(err, &le) || len(le.Stderr) == 0 {
		return
	}
	tail := le.Stderr
	if len(tail) > errorTail {
		tail = tail[len(tail)-errorTail:]
	}
	fmt.Fprintf(w, "--- the last %d bytes %s (incarnation %d) wrote on stderr ---\n%s", len(tail), le.Node, le.Incarnation, termtext.Escape(string(tail)))
	if tail[len(tail)-1] != '\n' {
		fmt.Fprintln(w)
	}
}

// KillOnInterrupt makes Ctrl-C, SIGTERM and SIGHUP kill every process
// the lab started before the program ends: the one goroutine of a lab
// run, and it touches no run state. The function returned stops it.
func KillOnInterrupt() func() {
	ch := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		select {
		case <-ch:
			KillAll()
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
		ClearInterrupt()
	}
}
