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
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// backMsg says the user left the run view for the picker.
type backMsg struct{}

// MaxOps bounds the operations of a run in the explorer, so a re-run
// stays instantaneous and the ledger readable.
const MaxOps = 99

// toggle is one what-if the user asked for: drop a message the run
// delivered, or deliver a message the run dropped. It names the message
// by identity (names, not ids), so it applies to the run of another
// semantics wherever that message exists.
type toggle struct {
	key   msgKey
	label string // the message, e.g. "pay-response op-2 #1"
	drop  bool   // true: drop it; false: undo a drop the random run took
}

// mode is what the run view shows below the ledger.
type mode uint8

const (
	modeLanes   mode = iota // lanes and, with room, the timeline
	modeLesson              // the lesson's why, watch and fix
	modeMetrics             // metrics and invariants
	modeSplit               // two semantics side by side on one schedule
)

// runView shows one run of one scenario: header, ledger, lanes, timeline.
// Every change of semantics, seed, ops or what-ifs re-runs the simulation
// synchronously — a run takes microseconds and is deterministic — so the
// view is always a function of its inputs.
type runView struct {
	spec    runSpec
	base    result      // the random run of spec
	cur     result      // what is shown: base, or the what-if run
	plan    []sim.Fault // the what-if fault plan; nil when there is none
	missing map[msgKey]bool
	toggles []toggle
	tl      timeline
	flash   string // one line of feedback under the timeline
	mode    mode
	cmpSem  sim.Semantics // the split view's second column
	cmp     result        // its run on the same schedule (split view only)
	keys    runKeys
	width   int
	height  int
}

// newRunView runs spec (its scenario's first semantics when spec's is 0
// or not supported, its default ops when spec's is < 1).
func newRunView(spec runSpec, width, height int) runView {
	sc := spec.sc
	if !sc.Supports(spec.sem) && len(sc.Semantics) > 0 {
		spec.sem = sc.Semantics[0]
	}
	if spec.ops < 1 {
		spec.ops = sc.Ops
	}
	spec.ops = min(spec.ops, MaxOps)
	v := runView{spec: spec, keys: newRunKeys(), width: width, height: height}
	v.cmpSem = cycle(sc.Semantics, spec.sem, 1)
	return v.rerun()
}

// firstViolation puts the cursor on the run's first violation, if any.
func (v runView) firstViolation() runView {
	if len(v.cur.viol) > 0 {
		vi := v.cur.viol[0]
		v.tl = v.tl.move(vi.event, len(v.cur.events), v.pageRows())
		v.flash = violationFlash(vi, 1, len(v.cur.viol))
	}
	return v
}

// rerun runs the spec afresh and forgets the what-ifs, which name messages
// of the old run.
func (v runView) rerun() runView {
	v.toggles = nil
	return v.replay()
}

// replay runs the spec and applies the what-ifs to the new run's faults,
// by identity.
func (v runView) replay() runView {
	v.base = simulate(v.spec)
	v.cur, v.plan, v.missing = v.base, nil, nil
	if len(v.toggles) > 0 {
		v.plan, v.missing = planFor(&v.base, v.toggles)
		v.cur = simulateWhatIf(v.spec, v.plan)
	}
	v = v.refreshSplit()
	v.tl = v.tl.move(v.tl.cursor, len(v.cur.events), v.pageRows())
	return v
}

// refreshSplit runs the compared semantics on the same schedule: the same
// seed and, with what-ifs, the same what-ifs by identity.
func (v runView) refreshSplit() runView {
	if v.mode != modeSplit {
		v.cmp = result{}
		return v
	}
	if v.cmpSem == v.spec.sem || !v.spec.sc.Supports(v.cmpSem) {
		v.cmpSem = cycle(v.spec.sc.Semantics, v.spec.sem, 1)
	}
	spec := v.spec
	spec.sem = v.cmpSem
	v.cmp = simulate(spec)
	if len(v.toggles) > 0 {
		plan, _ := planFor(&v.cmp, v.toggles)
		v.cmp = simulateWhatIf(spec, plan)
	}
	return v
}

// setSize gives the view its share of the screen.
func (v runView) setSize(width, height int) runView {
	v.width, v.height = width, height
	v.tl = v.tl.scroll(len(v.cur.events), v.pageRows())
	return v
}

// layout is how many lines each part gets.
type layout struct {
	header   int // 1 (compact) or 2
	ledger   int // operation rows
	overflow int // 1 when the ledger scrolls
	top      int // lines of the ledger and summary block, header row included
	lanes    int // event rows of the lanes
	timeline int // lines of the timeline; 0 when there is no room for it
}

// compactBelow is the height under which the header takes one line and
// the lanes, whose rows carry each event's label, replace the timeline.
const compactBelow = 30

// timelineFrom is the room below the ledger from which the timeline is
// shown under the lanes.
const timelineFrom = 20

func (v runView) layout() layout {
	l := layout{header: 2}
	if v.height < compactBelow {
		l.header = 1
	}
	avail := max(0, v.height-l.header-1) // minus the flash line
	n := 0
	if v.cur.outcome != nil {
		n = len(v.cur.outcome.Ops)
	}
	l.ledger = min(n, max(2, (avail+2)/3-1))
	if n > l.ledger {
		l.overflow = 1
	}
	summaryCap := 7
	if v.height >= 40 {
		summaryCap = 10
	}
	l.top = max(1+l.ledger+l.overflow, min(summaryCap, len(v.summaryLines(80))))
	rest := max(0, avail-l.top)
	if rest >= timelineFrom {
		l.lanes = max(6, min(14, (rest-3)*2/5))
		l.timeline = max(1, rest-3-l.lanes)
	} else {
		l.lanes = max(1, rest-2) // the lanes' rule and node names
	}
	return l
}

// pageRows is how far pgup/pgdn move: the taller of lanes and timeline.
func (v runView) pageRows() int {
	l := v.layout()
	return max(1, l.lanes, l.timeline)
}

// update handles a key in the run view.
func (v runView) update(msg tea.KeyPressMsg) (runView, tea.Cmd) {
	n := len(v.cur.events)
	h := v.pageRows()
	v.flash = ""
	switch {
	case key.Matches(msg, v.keys.Back):
		if v.mode != modeLanes {
			v.mode = modeLanes
			return v.refreshSplit(), nil
		}
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
		v.tl = v.tl.move(nextMatching(v.cur.events, v.tl.cursor, 1, notableIn(v.cur.topo)), n, h)
	case key.Matches(msg, v.keys.PrevNotable):
		v.tl = v.tl.move(nextMatching(v.cur.events, v.tl.cursor, -1, notableIn(v.cur.topo)), n, h)
	case key.Matches(msg, v.keys.FirstViolation):
		if len(v.cur.viol) == 0 {
			v.flash = lang.T("tui.flash.no_violation")
			break
		}
		v = v.firstViolation()
	case key.Matches(msg, v.keys.NextViolation), key.Matches(msg, v.keys.PrevViolation):
		dir := 1
		if key.Matches(msg, v.keys.PrevViolation) {
			dir = -1
		}
		vi, i, ok := nextViolation(v.cur.viol, v.tl.cursor, dir)
		switch {
		case len(v.cur.viol) == 0:
			v.flash = lang.T("tui.flash.no_violation")
		case !ok && dir > 0:
			v.flash = lang.T("tui.flash.no_later_violation")
		case !ok:
			v.flash = lang.T("tui.flash.no_earlier_violation")
		default:
			v.tl = v.tl.move(vi.event, n, h)
			v.flash = violationFlash(vi, i, len(v.cur.viol))
		}
	case key.Matches(msg, v.keys.Semantics), key.Matches(msg, v.keys.SemanticsBack):
		dir := 1
		if key.Matches(msg, v.keys.SemanticsBack) {
			dir = -1
		}
		v = v.switchSemantics(cycle(v.spec.sc.Semantics, v.spec.sem, dir))
	case key.Matches(msg, v.keys.Compare):
		if v.mode == modeSplit {
			next := cycle(v.spec.sc.Semantics, v.cmpSem, 1)
			if next == v.spec.sem {
				next = cycle(v.spec.sc.Semantics, next, 1)
			}
			v.cmpSem = next
			v = v.refreshSplit()
		} else {
			v.flash = lang.T("tui.flash.compare_in_split")
		}
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
		if len(v.toggles) > 0 {
			v = v.rerun()
			v.flash = lang.Tf("tui.flash.forgotten", map[string]any{"Seed": v.spec.seed})
		}
	case key.Matches(msg, v.keys.Lesson):
		v = v.toggleMode(modeLesson)
	case key.Matches(msg, v.keys.Metrics):
		v = v.toggleMode(modeMetrics)
	case key.Matches(msg, v.keys.Split):
		if len(v.spec.sc.Semantics) < 2 {
			v.flash = lang.T("tui.flash.one_semantics")
			break
		}
		v = v.toggleMode(modeSplit)
	}
	return v, nil
}

// toggleMode shows m below the ledger, or the lanes again if m is shown.
func (v runView) toggleMode(m mode) runView {
	if v.mode == m {
		v.mode = modeLanes
	} else {
		v.mode = m
	}
	return v.refreshSplit()
}

// switchSemantics re-runs under sem with the same what-ifs (re-applied by
// identity wherever the message exists) and keeps the cursor on the same
// logical event, or the nearest in time when sem's run has no such event.
func (v runView) switchSemantics(sem sim.Semantics) runView {
	old, cursor := v.cur, v.tl.cursor
	v.spec.sem = sem
	v = v.replay()
	j, exact := sameEvent(&old, &v.cur, cursor)
	v.tl = v.tl.move(j, len(v.cur.events), v.pageRows())
	why := firstSentence(lessonText(v.spec.sc, "why."+sem.Alias(), v.spec.sc.Lesson.Why[sem]))
	v.flash = lang.Tf("tui.flash.semantics", map[string]any{"Semantics": sem.String(), "Why": why})
	if !exact && len(old.events) > 0 {
		v.flash = lang.T("tui.flash.no_same_event") + " " + v.flash
	}
	if len(v.missing) > 0 {
		v.flash = lang.N("tui.flash.whatifs_missing", len(v.missing)) + " " + v.flash
	}
	return v
}

// lessonText is a lesson field of sc in the current language; a scenario
// that is not the catalog's (a user's file) keeps its own words.
func lessonText(sc *scenarios.Scenario, field, english string) string {
	if cat, err := scenarios.Lookup(sc.Name); err != nil || cat != sc {
		return english
	}
	return lang.Lesson(sc.Name, field, english)
}

// violationFlash is the flash line on a violation: "violation 1 of 2:
// op-3's second effect (value 8826): charged twice".
func violationFlash(vi violation, n, of int) string {
	return lang.Tf("tui.flash.violation", map[string]any{"N": n, "Of": of, "What": vi.what})
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
// message the run dropped, "what if it had arrived?". It edits the what-ifs
// and replays the run's faults with them through the Scripted chooser.
func (v runView) toggleDrop(i int) runView {
	f, send, why, ok := v.cur.dropTarget(i)
	if !ok {
		v.flash = why
		return v
	}
	before := v
	k := v.cur.keyOfFault(f)
	label := msgShort(v.cur.topo, &v.cur.events[send].Msg)
	if j := slices.IndexFunc(v.toggles, func(t toggle) bool { return t.key == k }); j >= 0 {
		v.toggles = slices.Delete(slices.Clone(v.toggles), j, j+1)
	} else {
		plan := v.plan
		if plan == nil {
			plan = v.base.faults
		}
		v.toggles = append(slices.Clone(v.toggles), toggle{key: k, label: label, drop: !slices.Contains(plan, f)})
	}
	v = v.replay()
	if len(v.toggles) == 0 {
		v.flash = lang.Tf("tui.flash.back_to_random", map[string]any{"Msg": label})
	} else {
		if slices.Contains(v.plan, f) && !v.cur.applied[f] && !v.cur.lossy[[2]sim.NodeID{f.Node, f.Peer}] {
			// The link offers no loss choice: this what-if cannot happen.
			before.flash = lang.Tf("tui.flash.reliable", map[string]any{
				"From": v.cur.topo.NodeName(f.Node), "To": v.cur.topo.NodeName(f.Peer)})
			return before
		}
		v.flash = v.whatIfSummary(f, label)
	}
	// The trace before the send is the same in both runs: keep the cursor
	// on the message, with its new fate right below.
	v.tl = v.tl.move(send, len(v.cur.events), v.pageRows())
	return v
}

// whatIfSummary is the flash line after a toggle: what was asked and what
// it changed, e.g. "✂ pay-response op-1 #1 lost → op-1: exactly-once →
// duplicated".
func (v runView) whatIfSummary(f sim.Fault, label string) string {
	s := "↩ " + lang.Tf("tui.whatif.delivered", map[string]any{"Msg": label})
	if slices.Contains(v.plan, f) {
		s = "✂ " + lang.Tf("tui.whatif.lost", map[string]any{"Msg": label})
		if !v.cur.applied[f] {
			return s + "? " + v.notApplied(f)
		}
	}
	ch := verdictChanges(v.base.outcome, v.cur.outcome)
	if len(ch) == 0 {
		return s + " → " + lang.T("tui.whatif.no_change")
	}
	var parts []string
	for _, c := range ch {
		parts = append(parts, fmt.Sprintf("%s: %s → %s", c.op, verdictWord(c.from.Verdict), verdictWord(c.to.Verdict)))
	}
	return s + " → " + strings.Join(parts, ", ")
}

// notApplied says why a planned drop did not happen in the what-if run.
func (v runView) notApplied(f sim.Fault) string {
	if !v.cur.lossy[[2]sim.NodeID{f.Node, f.Peer}] {
		return lang.Tf("tui.whatif.not_applied_reliable", map[string]any{
			"From": v.cur.topo.NodeName(f.Node), "To": v.cur.topo.NodeName(f.Peer)})
	}
	return lang.T("tui.whatif.not_applied_gone")
}

// verdictWord is a verdict in the current language.
func verdictWord(v sim.Verdict) string { return lang.Word("verdict", v.String()) }

// statusWord is a promise's status in the current language.
func statusWord(s sim.Status) string { return lang.Word("verdict", s.String()) }

// focusOp is the operation of the event under the cursor, 0 for none.
func (v runView) focusOp() sim.OpID {
	if c := v.tl.cursor; c >= 0 && c < len(v.cur.events) {
		return v.cur.events[c].Msg.Op
	}
	return 0
}

// eventCount is "event 5 of 70".
func (v runView) eventCount() string {
	return lang.Tf("tui.event_of", map[string]any{"N": min(v.tl.cursor+1, len(v.cur.events)), "Of": len(v.cur.events)})
}

// view renders the run view in exactly v.height lines.
func (v runView) view() string {
	w := v.width
	if v.cur.err != nil {
		return styleBad.Render("once: "+v.cur.err.Error()) + "\n" + styleDim.Render(lang.T("tui.error_back"))
	}
	l := v.layout()
	parts := []string{v.header(l.header)}

	changed := map[sim.OpID]bool{}
	for _, c := range verdictChanges(v.base.outcome, v.cur.outcome) {
		changed[c.op] = true
	}
	lw := min(ledgerWidthFor(w), w)
	led := ledgerView(&v.cur, changed, v.focusOp(), lw, l.ledger)
	sum := v.summary(max(0, w-lw-2), l.top)
	top := lipgloss.JoinHorizontal(lipgloss.Top, padLines(led, lw), "  ", sum)
	if lw+2 >= w {
		top = led
	}
	below := l.lanes + 2
	if l.timeline > 0 {
		below += l.timeline + 1
	}
	if v.mode == modeSplit {
		below += l.top // side by side, each column has its own verdicts and ledger
	} else {
		parts = append(parts, top)
	}
	switch v.mode {
	case modeLesson:
		parts = append(parts, rule(lang.Tf("tui.rule.lesson", map[string]any{"Semantics": v.spec.sem.String()}), w))
		parts = append(parts, v.lessonView(w, below-1))
	case modeMetrics:
		parts = append(parts, rule(lang.T("tui.rule.metrics"), w))
		parts = append(parts, v.metricsView(w, below-1))
	case modeSplit:
		parts = append(parts, v.splitView(w, below))
	default:
		title := lang.T("tui.rule.lanes")
		if l.timeline == 0 {
			title += " · " + v.eventCount()
		}
		parts = append(parts, rule(title, w)+"\n"+lanesView(&v.cur, v.tl.cursor, w, l.lanes))
		if l.timeline > 0 {
			whatIf := map[sim.Fault]bool{}
			for _, t := range v.toggles {
				if f, ok := v.cur.faultOf(t.key); ok && t.drop {
					whatIf[f] = true
				}
			}
			title := lang.T("tui.rule.timeline") + " · " + v.eventCount()
			parts = append(parts, rule(title, w)+"\n"+v.tl.view(&v.cur, whatIf, w, l.timeline))
		}
	}
	parts = append(parts, v.flashLine(w))
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

// flashLine is the feedback line: the last action's, else the violation
// under the cursor, else a hint for the event under the cursor.
func (v runView) flashLine(w int) string {
	if v.flash != "" {
		return styleAccent.Render(fit(v.flash, w))
	}
	c := v.tl.cursor
	if len(v.cur.events) == 0 || c >= len(v.cur.events) {
		return ""
	}
	for i, vi := range v.cur.viol {
		if vi.event == c {
			return styleBad.Render(fit(violationFlash(vi, i+1, len(v.cur.viol)), w))
		}
	}
	hint := lang.T("tui.hint.message")
	if !messageEvent(v.cur.events[c].Kind) {
		hint = lang.T("tui.hint.event")
	}
	return styleDim.Render(fit(hint, w))
}

// header is the scenario and the semantics it cycles through, then seed,
// ops, parameters and the fault profile: two lines, or one (lines=1) cut
// to what fits.
func (v runView) header(lines int) string {
	sc := v.spec.sc
	var sems []string
	for _, s := range sc.Semantics {
		if s == v.spec.sem {
			sems = append(sems, styleCursor.Render(" "+s.Alias()+" "))
		} else {
			sems = append(sems, styleDim.Render(" "+s.Alias()+" "))
		}
	}
	chips := lang.T("tui.header.semantics") + " " + strings.Join(sems, "")
	promise := " " + v.spec.sem.Promise().String()
	seedOps := lang.Tf("tui.header.seed_ops", map[string]any{
		"Seed": styleTitle.Render(strconv.FormatUint(v.spec.seed, 10)), "Ops": styleTitle.Render(strconv.Itoa(v.spec.ops))})
	var extra []string
	if p := v.spec.paramsText(); p != "" {
		extra = append(extra, lang.T("tui.header.set")+" "+styleTitle.Render(p))
	}
	extra = append(extra, lang.T("tui.header.faults")+" "+profileText(nil, v.spec.faults))
	whatIf := ""
	if len(v.toggles) > 0 {
		whatIf = "  " + styleMagenta.Bold(true).Reverse(true).Render(" "+lang.T("tui.header.whatif")+" ")
	}
	if lines < 2 {
		// One line: the name, the chips, the promise, the parameters (a
		// headline row is about them), seed and ops, then what else fits;
		// the semantics' long name only when there is room for it.
		name, chipsOnly := styleTitle.Render(sc.Name), strings.Join(sems, "")
		rest := whatIf
		if p := v.spec.paramsText(); p != "" {
			rest += " · " + lang.T("tui.header.set") + " " + styleTitle.Render(p)
		}
		rest += " · " + seedOps
		s := name + " " + chipsOnly + " " + styleTitle.Render(v.spec.sem.String()) + promise + rest
		if ansi.StringWidth(s) > v.width {
			s = name + " " + chipsOnly + promise + rest
		}
		if f := " · " + extra[len(extra)-1]; ansi.StringWidth(s+f) <= v.width {
			s += f
		}
		return fit(s, v.width)
	}
	line1 := styleTitle.Render(sc.Name) + styleDim.Render(" ("+sc.Topology+")") + "  " + chips + "  " + styleTitle.Render(v.spec.sem.String()) + promise
	if ansi.StringWidth(line1) > v.width {
		line1 = styleTitle.Render(sc.Name) + "  " + chips + promise
	}
	line2 := seedOps + " · " + strings.Join(extra, " · ") + whatIf
	return fit(line1, v.width) + "\n" + fit(line2, v.width)
}

// profileText lists the non-zero probabilities of a fault profile.
func profileText(kinds *sim.Registry, f scenarios.Faults) string {
	parts := report.FaultPartsIn(kinds, f, "", true)
	if len(parts) == 0 {
		return lang.Word("fault", "none")
	}
	return strings.Join(parts, " · ")
}

// faultText lists the faults that hit a run, labelled as every report
// labels them (report.FaultCountParts).
func faultText(kinds *sim.Registry, f sim.FaultCounts) string {
	parts := report.FaultCountPartsIn(kinds, f)
	if len(parts) == 0 {
		return lang.Word("fault", "none")
	}
	return strings.Join(parts, ", ")
}

// lessonView is the scenario's teaching text for the current semantics.
func (v runView) lessonView(width, height int) string {
	sc := v.spec.sc
	ls := sc.Lesson
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
	sem := v.spec.sem
	add(lang.Tf("tui.lesson.why", map[string]any{"Semantics": sem.String()}), lessonText(sc, "why."+sem.Alias(), ls.Why[sem]))
	add(lang.T("explain.watch"), lessonText(sc, "watch", ls.Watch))
	add(lang.T("explain.fix"), lessonText(sc, "fix", ls.Fix))
	return fixHeight(lines, height)
}

// fixHeight cuts or pads lines to exactly height lines.
func fixHeight(lines []string, height int) string {
	height = max(0, height)
	if len(lines) > height {
		lines = lines[:height]
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}
