package lab

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

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
	r.Outcome.Status, r.Outcome.Reason = j.runReason(r)
	_, r.Outcome.Why = j.RunVerdict(r)
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
	cex, _, err := l.counterexample(sem, judge, faults, jitter)
	return cex, err
}

// counterexample is Counterexample with the minimal run it describes.
func (l *Lab) counterexample(sem sim.Semantics, judge Judge, faults []sim.Fault, jitter func() sim.Chooser) (*report.Counterexample, *Minimal, error) {
	m, err := l.Minimize(sem, judge, faults, jitter)
	if err != nil {
		return nil, nil, err
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
	return cex, m, nil
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

// interruptGrace is how long a signal leaves a lab command to end by
// itself (an explore reports INCOMPLETE with its statistics) before
// OnInterrupt exits anyway.
const interruptGrace = 900 * time.Millisecond

// OnInterrupt is KillOnInterrupt for a lab command: a signal also closes
// the channel returned (an explore stops at its next chunk), and if the
// command is still running interruptGrace later — blocked outside any
// node: a plan that is a FIFO, a slow disk — it writes one line on w and
// calls exit (os.Exit when nil) with 128 + the signal's number. Call the
// function returned when the command ends.
func OnInterrupt(w io.Writer, exit func(int)) (<-chan struct{}, func()) {
	if exit == nil {
		exit = os.Exit
	}
	stopCh := make(chan struct{})
	var mu sync.Mutex
	var grace *time.Timer
	ended := false
	stop := KillOnInterrupt(func(sig os.Signal) {
		close(stopCh)
		mu.Lock()
		defer mu.Unlock()
		if ended {
			return
		}
		grace = time.AfterFunc(interruptGrace, func() {
			mu.Lock()
			defer mu.Unlock()
			if ended {
				return
			}
			fmt.Fprintf(w, "once lab: interrupted (%s) while blocked outside a node: nothing to report\n", sig)
			n := 1
			if s, ok := sig.(syscall.Signal); ok {
				n = int(s)
			}
			exit(128 + n)
		})
	})
	return stopCh, func() {
		mu.Lock()
		ended = true
		if grace != nil {
			grace.Stop()
		}
		mu.Unlock()
		stop()
	}
}

// KillOnInterrupt makes Ctrl-C, SIGTERM and SIGHUP kill every process
// the lab started before the program ends: the one goroutine of a lab
// run, and it touches no run state. Then it calls then (if not nil) with
// the signal. The function returned stops it.
func KillOnInterrupt(then func(os.Signal)) func() {
	ch := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		select {
		case sig := <-ch:
			KillAll()
			if then != nil {
				then(sig)
			}
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
		ClearInterrupt()
	}
}
