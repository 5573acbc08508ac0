package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// backMsg says the user left the run view for the picker.
type backMsg struct{}

// MaxOps bounds the operations of a run in the explorer, so a re-run
// stays instantaneous and the ledger readable.
const MaxOps = 99

// toggle is one what-if the user asked for: drop a message the run
// delivered, or deliver a message the run dropped.
type toggle struct {
	fault sim.Fault
	label string // the message, e.g. "pay-response op-2 #1"
	drop  bool   // true: drop it; false: undo a drop the random run took
}

// runView shows one run of one scenario: header, ledger, lanes, timeline.
// Every change of semantics, seed, ops or what-ifs re-runs the simulation
// synchronously — a run takes microseconds and is deterministic — so the
// view is always a function of its inputs.
type runView struct {
	spec    runSpec
	base    result      // the random run of spec
	cur     result      // what is shown: base, or the what-if run
	plan    []sim.Fault // the what-if fault plan; nil when there is none
	toggles []toggle
	tl      timeline
	flash   string // one line of feedback under the timeline
	lesson  bool   // show the lesson instead of lanes and timeline
	keys    runKeys
	width   int
	height  int
}

// newRunView runs sc under sem (its first semantics when sem is 0 or not
// supported) on seed with ops operations (its default when ops < 1).
func newRunView(sc *scenarios.Scenario, sem sim.Semantics, seed uint64, ops, width, height int) runView {
	if !sc.Supports(sem) && len(sc.Semantics) > 0 {
		sem = sc.Semantics[0]
	}
	if ops < 1 {
		ops = sc.Ops
	}
	v := runView{spec: runSpec{sc: sc, sem: sem, seed: seed, ops: min(ops, MaxOps)}, keys: newRunKeys(), width: width, height: height}
	return v.rerun()
}

// rerun runs the spec afresh and forgets the what-ifs, which name messages
// of the old run.
func (v runView) rerun() runView {
	v.base = simulate(v.spec)
	v.cur = v.base
	v.plan, v.toggles = nil, nil
	v.tl = v.tl.move(v.tl.cursor, len(v.cur.events), v.layout().timeline)
	return v
}

// setSize gives the view its share of the screen.
func (v runView) setSize(width, height int) runView {
	v.width, v.height = width, height
	v.tl = v.tl.scroll(len(v.cur.events), v.layout().timeline)
	return v
}

// layout is how many lines each part gets.
type layout struct {
	ledger   int // operation rows
	overflow int // 1 when the ledger scrolls
	top      int // lines of the ledger and summary block, header row included
	lanes    int // event rows of the lanes
	timeline int // lines of the timeline
}

func (v runView) layout() layout {
	const fixed = 6 // header 2, two rules, lanes head 1, flash 1
	avail := max(0, v.height-fixed)
	var l layout
	n := 0
	if v.cur.outcome != nil {
		n = len(v.cur.outcome.Ops)
	}
	l.ledger = min(n, max(2, (avail+2)/3-1))
	if n > l.ledger {
		l.overflow = 1
	}
	l.top = max(1+l.ledger+l.overflow, min(summaryMax, len(v.summaryLines(80))))
	rest := max(0, avail-l.top)
	l.lanes = max(1, min(9, rest*2/5))
	l.timeline = max(1, rest-l.lanes)
	return l
}

// update handles a key in the run view.
func (v runView) update(msg tea.KeyPressMsg) (runView, tea.Cmd) {
	n := len(v.cur.events)
	h := v.layout().timeline
	v.flash = ""
	switch {
	case key.Matches(msg, v.keys.Back):
		return v, func() tea.Msg { return backMsg{} }
	case key.Matches(msg, v.keys.Next):
		v.tl = v.tl.move(v.tl.cursor+1, n, h)
	case key.Matches(msg, v.keys.Prev):
		v.tl = v.tl.move(v.tl.cursor-1, n, h)
	case key.Matches(msg, v.keys.PageDown):
		v.tl = v.tl.move(v.tl.cursor+h, n, h)
	case key.Matches(msg, v.keys.PageUp):
		v.tl = v.tl.move(v.tl.cursor-h, n, h)
	case key.Matches(msg, v.keys.First):
		v.tl = v.tl.move(0, n, h)
	case key.Matches(msg, v.keys.Last):
		v.tl = v.tl.move(n-1, n, h)
	case key.Matches(msg, v.keys.NextNotable):
		v.tl = v.tl.move(nextMatching(v.cur.events, v.tl.cursor, 1, notable), n, h)
	case key.Matches(msg, v.keys.PrevNotable):
		v.tl = v.tl.move(nextMatching(v.cur.events, v.tl.cursor, -1, notable), n, h)
	case key.Matches(msg, v.keys.Semantics), key.Matches(msg, v.keys.SemanticsBack):
		dir := 1
		if key.Matches(msg, v.keys.SemanticsBack) {
			dir = -1
		}
		v.spec.sem = cycle(v.spec.sc.Semantics, v.spec.sem, dir)
		v = v.rerun()
		v.flash = "semantics " + v.spec.sem.String() + ": " + firstSentence(v.spec.sc.Lesson.Why[v.spec.sem])
	case key.Matches(msg, v.keys.SeedUp):
		v.spec.seed++
		v = v.rerun()
	case key.Matches(msg, v.keys.SeedDown):
		if v.spec.seed > 0 {
			v.spec.seed--
			v = v.rerun()
		}
	case key.Matches(msg, v.keys.OpsUp):
		if v.spec.ops < MaxOps {
			v.spec.ops++
			v = v.rerun()
		}
	case key.Matches(msg, v.keys.OpsDown):
		if v.spec.ops > 1 {
			v.spec.ops--
			v = v.rerun()
		}
	case key.Matches(msg, v.keys.Drop):
		v = v.toggleDrop(v.tl.cursor)
	case key.Matches(msg, v.keys.Reset):
		if v.plan != nil {
			v = v.rerun()
			v.flash = "what-ifs forgotten: back to the random run of seed " + strconv.FormatUint(v.spec.seed, 10)
		}
	case key.Matches(msg, v.keys.Lesson):
		v.lesson = !v.lesson
	}
	return v, nil
}

// cycle returns the semantics after (dir=1) or before (dir=-1) cur in list.
func cycle(list []sim.Semantics, cur sim.Semantics, dir int) sim.Semantics {
	if len(list) == 0 {
		return cur
	}
	i := slices.Index(list, cur)
	return list[((i+dir)%len(list)+len(list))%len(list)]
}

func firstSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

// toggleDrop asks "what if the message of event i were lost?" — or, on a
// message the run dropped, "what if it had arrived?". It edits the fault
// plan (the random run's recorded faults, plus or minus this loss) and
// replays it with the Scripted chooser.
func (v runView) toggleDrop(i int) runView {
	f, send, why, ok := v.cur.dropTarget(i)
	if !ok {
		v.flash = why
		return v
	}
	before := v
	if v.plan == nil {
		v.plan = v.base.faults
	}
	v.plan = slices.Clone(v.plan) // earlier models keep theirs: updates are pure
	label := msgShort(v.cur.topo, &v.cur.events[send].Msg)
	if j := slices.Index(v.plan, f); j >= 0 {
		v.plan = slices.Delete(v.plan, j, j+1)
		v.toggles = undoOrAdd(v.toggles, toggle{fault: f, label: label, drop: false})
	} else {
		v.plan = append(v.plan, f)
		v.toggles = undoOrAdd(v.toggles, toggle{fault: f, label: label, drop: true})
	}
	if len(v.toggles) == 0 {
		v.plan = nil
		v.cur = v.base
		v.flash = "back to the random run: " + label + " as it happened"
	} else {
		cur := simulateWhatIf(v.spec, v.plan)
		if slices.Contains(v.plan, f) && !cur.applied[f] && !cur.lossy[[2]sim.NodeID{f.Node, f.Peer}] {
			// The link offers no loss choice: this what-if cannot happen.
			before.flash = fmt.Sprintf("cannot drop it: %s→%s is a reliable link (never loses a message)",
				v.cur.topo.NodeName(f.Node), v.cur.topo.NodeName(f.Peer))
			return before
		}
		v.cur = cur
		v.flash = v.whatIfSummary(f, label)
	}
	// The trace before the send is the same in both runs: keep the cursor
	// on the message, with its new fate right below.
	v.tl = v.tl.move(send, len(v.cur.events), v.layout().timeline)
	return v
}

// undoOrAdd removes the opposite of t from ts (toggling twice is no
// what-if at all) or appends t.
func undoOrAdd(ts []toggle, t toggle) []toggle {
	for i, o := range ts {
		if o.fault == t.fault {
			return slices.Delete(slices.Clone(ts), i, i+1)
		}
	}
	return append(slices.Clone(ts), t)
}

// whatIfSummary is the flash line after a toggle: what was asked and what
// it changed, e.g. "✂ pay-response op-1 #1 lost → op-1: exactly-once →
// duplicated".
func (v runView) whatIfSummary(f sim.Fault, label string) string {
	s := "↩ " + label + " delivered"
	if slices.Contains(v.plan, f) {
		s = "✂ " + label + " lost"
		if !v.cur.applied[f] {
			return s + "? " + v.notApplied(f)
		}
	}
	ch := verdictChanges(v.base.outcome, v.cur.outcome)
	if len(ch) == 0 {
		return s + " → no verdict changes"
	}
	var parts []string
	for _, c := range ch {
		parts = append(parts, fmt.Sprintf("%s: %s → %s", c.op, c.from.Verdict, c.to.Verdict))
	}
	return s + " → " + strings.Join(parts, ", ")
}

// notApplied says why a planned drop did not happen in the what-if run.
func (v runView) notApplied(f sim.Fault) string {
	if !v.cur.lossy[[2]sim.NodeID{f.Node, f.Peer}] {
		return fmt.Sprintf("not applied: %s→%s is a reliable link (never loses a message)",
			v.cur.topo.NodeName(f.Node), v.cur.topo.NodeName(f.Peer))
	}
	return "not applied: that message is no longer sent in this run"
}

// focusOp is the operation of the event under the cursor, 0 for none.
func (v runView) focusOp() sim.OpID {
	if c := v.tl.cursor; c >= 0 && c < len(v.cur.events) {
		return v.cur.events[c].Msg.Op
	}
	return 0
}

// view renders the run view in exactly v.height lines.
func (v runView) view() string {
	w := v.width
	if v.cur.err != nil {
		return styleBad.Render("once: "+v.cur.err.Error()) + "\n" + styleDim.Render("esc: back to the scenarios")
	}
	l := v.layout()
	parts := []string{v.header()}

	changed := map[sim.OpID]bool{}
	for _, c := range verdictChanges(v.base.outcome, v.cur.outcome) {
		changed[c.op] = true
	}
	lw := min(ledgerWidth, w)
	led := ledgerView(v.cur.outcome, changed, v.focusOp(), lw, l.ledger)
	sum := v.summary(max(0, w-lw-2), l.top)
	top := lipgloss.JoinHorizontal(lipgloss.Top, padLines(led, lw), "  ", sum)
	if lw+2 >= w {
		top = led
	}
	parts = append(parts, top)

	if v.lesson {
		parts = append(parts, rule("lesson: "+v.spec.sem.String(), w))
		parts = append(parts, v.lessonView(w, l.lanes+l.timeline+2))
	} else {
		parts = append(parts, rule("lanes", w)+"\n"+lanesView(&v.cur, v.tl.cursor, w, l.lanes))
		title := fmt.Sprintf("timeline  event %d of %d", min(v.tl.cursor+1, len(v.cur.events)), len(v.cur.events))
		whatIf := map[sim.Fault]bool{}
		for _, t := range v.toggles {
			if t.drop {
				whatIf[t.fault] = true
			}
		}
		parts = append(parts, rule(title, w)+"\n"+v.tl.view(&v.cur, whatIf, w, l.timeline))
	}
	flash := v.flash
	switch {
	case flash != "":
		flash = styleAccent.Render(fit(flash, w))
	case len(v.cur.events) > 0 && v.tl.cursor < len(v.cur.events):
		hint := "x: what if this message were lost?"
		if !messageEvent(v.cur.events[v.tl.cursor].Kind) {
			hint = "n: next fault or effect · w: why this semantics does what it does"
		}
		flash = styleDim.Render(fit(hint, w))
	}
	parts = append(parts, flash)
	out := strings.Join(parts, "\n")
	lines := strings.Split(out, "\n")
	for len(lines) < v.height {
		lines = append(lines, "")
	}
	if len(lines) > v.height {
		lines = lines[:v.height]
	}
	return strings.Join(lines, "\n")
}

// header is two lines: the scenario and the semantics it cycles through,
// then seed, ops and the fault profile (its non-zero probabilities).
func (v runView) header() string {
	sc := v.spec.sc
	var sems []string
	for _, s := range sc.Semantics {
		if s == v.spec.sem {
			sems = append(sems, styleCursor.Render(" "+s.Alias()+" "))
		} else {
			sems = append(sems, styleDim.Render(" "+s.Alias()+" "))
		}
	}
	chips := "semantics " + strings.Join(sems, "")
	promise := " " + v.spec.sem.Promise().String()
	line1 := styleTitle.Render(sc.Name) + styleDim.Render(" ("+sc.Topology+")") + "  " + chips + "  " + styleTitle.Render(v.spec.sem.String()) + promise
	if ansi.StringWidth(line1) > v.width {
		line1 = styleTitle.Render(sc.Name) + "  " + chips + promise
	}
	line2 := fmt.Sprintf("seed %s · ops %s · faults %s",
		styleTitle.Render(strconv.FormatUint(v.spec.seed, 10)), styleTitle.Render(strconv.Itoa(v.spec.ops)), profileText(sc.Faults))
	if v.plan != nil {
		line2 += "  " + styleMagenta.Bold(true).Reverse(true).Render(" WHAT-IF ")
	}
	return fit(line1, v.width) + "\n" + fit(line2, v.width)
}

// profileText lists the non-zero probabilities of a fault profile.
func profileText(f scenarios.Faults) string {
	parts := report.FaultParts(f, "", true)
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " · ")
}

// summaryMax bounds the summary panel's height.
const summaryMax = 7

// summary is the panel beside the ledger, cut to width and height.
func (v runView) summary(width, height int) string {
	if width < 12 {
		return ""
	}
	lines := v.summaryLines(width)
	if len(lines) > height {
		lines = append(lines[:max(0, height-1)], styleDim.Render("…"))
	}
	for i := range lines {
		lines[i] = fit(lines[i], width)
	}
	return strings.Join(lines, "\n")
}

// summaryLines are what the summary panel says: did the promise and the
// invariants hold, the counts of verdicts and faults, and the what-ifs
// with the verdicts they changed.
func (v runView) summaryLines(width int) []string {
	o := v.cur.outcome
	if o == nil {
		return nil
	}
	var lines []string
	status := "held"
	switch o.Status {
	case sim.Violated:
		status = "VIOLATED"
	case sim.Unknown:
		status = "unknown"
	}
	end := styleDim.Render(fmt.Sprintf(" · %d events · %s", o.Events, o.EndTime))
	if !o.Finished() {
		end = styleWarn.Render(" · unfinished: " + o.End.String())
	}
	lines = append(lines, fmt.Sprintf("promise %s %s", o.Semantics.Promise(), statusStyle(o.Status).Render(status))+end)
	counts := []string{
		fmt.Sprintf("%s lost", verdictStyle(sim.Lost).Render(strconv.Itoa(o.Count(sim.Lost)))),
		fmt.Sprintf("%s exactly-once", verdictStyle(sim.ExactlyOnce).Render(strconv.Itoa(o.Count(sim.ExactlyOnce)))),
		fmt.Sprintf("%s duplicated", verdictStyle(sim.Duplicated).Render(strconv.Itoa(o.Count(sim.Duplicated)))),
	}
	lines = append(lines, strings.Join(counts, " · "))
	lines = append(lines, "faults: "+faultText(o.Faults))
	for _, inv := range o.Invariants {
		if inv.Violation == "" {
			lines = append(lines, inv.Name+": "+styleGood.Render("held"))
		} else {
			lines = append(lines, inv.Name+": "+styleBad.Render("VIOLATED")+" "+inv.Violation)
		}
	}
	if o.Status == sim.Violated && o.Why != "" && len(o.Invariants) == 0 {
		lines = append(lines, styleBad.Render(o.Why))
	}
	if len(v.toggles) == 0 {
		lines = append(lines, styleDim.Render("what-if: x on a send drops it"))
		return lines
	}
	for _, t := range v.toggles {
		s := "✂ drop " + t.label
		if !t.drop {
			s = "↩ deliver " + t.label
		} else if !v.cur.applied[t.fault] {
			s += styleDim.Render(" (not applied)")
		}
		lines = append(lines, styleMagenta.Render(s))
	}
	ch := verdictChanges(v.base.outcome, v.cur.outcome)
	if len(ch) == 0 {
		lines = append(lines, styleDim.Render("no verdict changed"))
	}
	for _, c := range ch {
		lines = append(lines, fmt.Sprintf("%s: %s → %s", c.op,
			verdictStyle(c.from.Verdict).Render(c.from.Verdict.String()), verdictStyle(c.to.Verdict).Render(c.to.Verdict.String())))
	}
	if b, c := v.base.outcome.Status, o.Status; b != c {
		lines = append(lines, fmt.Sprintf("promise: %s → %s", statusStyle(b).Render(b.String()), statusStyle(c).Render(c.String())))
	}
	return lines
}

// faultText lists the faults that hit a run, labelled as every report
// labels them (report.FaultCountParts).
func faultText(f sim.FaultCounts) string {
	parts := report.FaultCountParts(f)
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// lessonView is the scenario's teaching text for the current semantics.
func (v runView) lessonView(width, height int) string {
	ls := v.spec.sc.Lesson
	var lines []string
	add := func(title, text string) {
		if strings.TrimSpace(text) == "" {
			return
		}
		lines = append(lines, styleTitle.Render(title))
		for _, l := range wrap(text, width-2) {
			lines = append(lines, " "+l)
		}
	}
	add("why, under "+v.spec.sem.String(), ls.Why[v.spec.sem])
	add("what to watch", ls.Watch)
	add("the fix", ls.Fix)
	if len(lines) > height {
		lines = lines[:height]
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}
