package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

func lookup(t *testing.T, name string) *scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// cursorEvent is the event under the run view's cursor.
func cursorEvent(m Model) *sim.Event { return &m.run.cur.events[m.run.tl.cursor] }

// TestOpensOnTheHeadlineViolation: `once tui double-billing` opens on
// at-least-once with the cursor on op's second charge, and `once tui
// outbox` on its headline row (the dual write) at the phantom event, with
// the lesson on the first screen: nothing to press.
func TestOpensOnTheHeadlineViolation(t *testing.T) {
	m := sized(t, New(Options{Start: lookup(t, "double-billing"), Seed: 1, Headline: true}), 80, 24)
	if m.run.spec.sem != sim.AtLeastOnce {
		t.Fatalf("double-billing opened on %s, want at-least-once (the run that charges twice)", m.run.spec.sem)
	}
	e := cursorEvent(m)
	if e.Kind != sim.EvEffect || m.run.cur.nth[m.run.tl.cursor] != 2 {
		t.Fatalf("the cursor is on %s (effect no. %d), want an operation's second effect", e.Kind, m.run.cur.nth[m.run.tl.cursor])
	}
	s := screenOf(m)
	for _, w := range []string{"violation 1/1", e.Msg.Op.String() + " charged twice", "▸", "EFFECT card-charges"} {
		if !strings.Contains(s, w) {
			t.Errorf("the first screen lacks %q:\n%s", w, s)
		}
	}

	m = sized(t, New(Options{Start: lookup(t, "outbox"), Seed: 1, Headline: true}), 80, 24)
	if m.run.spec.sem != sim.Idempotent || m.run.spec.paramsText() != "write=publish-then-commit" {
		t.Fatalf("outbox opened on %s %q, want its headline row idem write=publish-then-commit", m.run.spec.sem, m.run.spec.paramsText())
	}
	if e := cursorEvent(m); e.Kind != sim.EvEffect {
		t.Errorf("outbox: the cursor is on %s, want the phantom effect the invariant names", e.Kind)
	}
	s = screenOf(m)
	for _, w := range []string{"set write=publish-then-commit", "no-phantom-events", "violation 1/"} {
		if !strings.Contains(s, w) {
			t.Errorf("outbox: the first screen lacks %q:\n%s", w, s)
		}
	}

	// Without Headline (the picker, another caller) the first run is as asked.
	m = New(Options{Start: lookup(t, "double-billing"), Seed: 1})
	if m.run.spec.sem != sim.AtMostOnce || m.run.tl.cursor != 0 {
		t.Errorf("without Headline: %s at event %d, want at-most-once at event 0", m.run.spec.sem, m.run.tl.cursor)
	}
	// A semantics given on the command line wins over the headline.
	m = New(Options{Start: lookup(t, "outbox"), Semantics: sim.AtLeastOnce, Seed: 1, Headline: true})
	if m.run.spec.sem != sim.AtLeastOnce || m.run.spec.paramsText() != "" {
		t.Errorf("--semantics alo: opened on %s %q", m.run.spec.sem, m.run.spec.paramsText())
	}
}

// TestViolationKeys: f jumps to the first violation, ] and [ to the next
// and previous, each saying which it is; a run without one says so.
func TestViolationKeys(t *testing.T) {
	sc := lookup(t, "double-billing")
	var m Model
	seed := uint64(1)
	for ; seed < 200; seed++ {
		m = sized(t, New(Options{Start: sc, Semantics: sim.AtLeastOnce, Seed: seed}), 100, 30)
		if len(m.run.cur.viol) >= 2 {
			break
		}
	}
	vs := m.run.cur.viol
	if len(vs) < 2 {
		t.Fatal("no seed below 200 gives double-billing two violations under at-least-once")
	}
	for _, v := range vs {
		if e := &m.run.cur.events[v.event]; e.Kind != sim.EvEffect || m.run.cur.nth[v.event] < 2 {
			t.Errorf("seed %d: violation at event %d is %s, want a second effect", seed, v.event, e.Kind)
		}
	}
	m, _ = press(t, m, "f")
	if m.run.tl.cursor != vs[0].event || !strings.Contains(screenOf(m), "violation 1/") {
		t.Fatalf("f: cursor %d, want %d:\n%s", m.run.tl.cursor, vs[0].event, screenOf(m))
	}
	m, _ = press(t, m, "]")
	if m.run.tl.cursor != vs[1].event || !strings.Contains(screenOf(m), "violation 2/") {
		t.Fatalf("]: cursor %d, want %d:\n%s", m.run.tl.cursor, vs[1].event, screenOf(m))
	}
	m, _ = press(t, m, "[")
	if m.run.tl.cursor != vs[0].event {
		t.Fatalf("[: cursor %d, want %d", m.run.tl.cursor, vs[0].event)
	}
	m, _ = press(t, m, "[")
	if m.run.tl.cursor != vs[0].event || !strings.Contains(screenOf(m), "no violation before") {
		t.Fatalf("[ before the first: cursor %d:\n%s", m.run.tl.cursor, screenOf(m))
	}
	m, _ = press(t, m, "G", "]")
	if !strings.Contains(screenOf(m), "no violation after") {
		t.Fatalf("] after the last:\n%s", screenOf(m))
	}

	// Idempotent keys: nothing to jump to.
	m = sized(t, New(Options{Start: sc, Semantics: sim.Idempotent, Seed: seed}), 100, 30)
	m, _ = press(t, m, "f")
	if m.run.tl.cursor != 0 || !strings.Contains(screenOf(m), "no violation in this run") {
		t.Fatalf("f without a violation:\n%s", screenOf(m))
	}
}

// TestLostOperationIsAViolation: under at-most-once a lost operation's
// violation is the fault that lost it.
func TestLostOperationIsAViolation(t *testing.T) {
	sc := lookup(t, "double-billing")
	for seed := uint64(1); seed < 100; seed++ {
		m := New(Options{Start: sc, Semantics: sim.AtMostOnce, Seed: seed})
		o := m.run.cur.outcome
		if o.Count(sim.Lost) == 0 {
			continue
		}
		if len(m.run.cur.viol) != o.Count(sim.Lost) {
			t.Fatalf("seed %d: %d lost operations, %d violations", seed, o.Count(sim.Lost), len(m.run.cur.viol))
		}
		e := &m.run.cur.events[m.run.cur.viol[0].event]
		if e.Kind != sim.EvDrop && e.Kind != sim.EvCrash {
			t.Fatalf("seed %d: a lost operation's violation is a %s, want the drop or crash", seed, e.Kind)
		}
		return
	}
	t.Fatal("no seed below 100 loses an operation under at-most-once")
}

// TestMetricsAndInvariantsPanel: m shows every metric with its unit and
// every invariant held or violated, as the run's outcome has them; on a
// large screen they are beside the ledger without pressing anything.
func TestMetricsAndInvariantsPanel(t *testing.T) {
	sc := lookup(t, "eos-without-sink-cooperation")
	m := sized(t, New(Options{Start: sc, Semantics: sim.AtLeastOnce, Seed: 1}), 80, 24)
	o := m.run.cur.outcome
	if len(o.Metrics) == 0 || len(o.Invariants) == 0 {
		t.Fatal("eos-without-sink-cooperation has no metric or invariant any more; pick another scenario")
	}
	m, _ = press(t, m, "m")
	s := screenOf(m)
	if !strings.Contains(s, "metrics and invariants") {
		t.Fatalf("m does not show the panel:\n%s", s)
	}
	for _, want := range append(metricLines(sc.Roles(), o), "kafka-output-once: VIOLATED") {
		if !strings.Contains(s, ansi.Strip(want)) {
			t.Errorf("the panel lacks %q:\n%s", ansi.Strip(want), s)
		}
	}
	if !strings.Contains(s, "kafka-duplicates = ") || !strings.Contains(s, " operations") {
		t.Errorf("the metric has no unit:\n%s", s)
	}
	m, _ = press(t, m, "m")
	if strings.Contains(screenOf(m), "metrics and invariants") {
		t.Errorf("a second m does not hide the panel")
	}
	big := sized(t, New(Options{Start: sc, Semantics: sim.AtLeastOnce, Seed: 1}), 140, 45)
	s = screenOf(big)
	if !strings.Contains(s, "kafka-duplicates = ") || !strings.Contains(s, "kafka-output-once: VIOLATED") {
		t.Errorf("at 140x45 the default layout does not show metrics and invariants:\n%s", s)
	}
}

// TestSplitViewOneSchedule: v puts two semantics side by side on one
// schedule — the same seed's faults, keyed by identity, so every loss of
// a message both runs send is in both — with each column's verdicts; c
// changes the second column.
func TestSplitViewOneSchedule(t *testing.T) {
	sc := lookup(t, "double-billing")
	m := sized(t, New(Options{Start: sc, Semantics: sim.AtLeastOnce, Seed: 1}), 80, 24)
	m, _ = press(t, m, "v")
	if m.run.mode != modeSplit || m.run.cmpSem != sim.Idempotent {
		t.Fatalf("v: mode %d, second column %s", m.run.mode, m.run.cmpSem)
	}
	s := screenOf(m)
	for _, w := range []string{"at-least-once ≥1", "at-least-once+idempotent =1", "1 charged twice ✗", "5 charged once ✓"} {
		if !strings.Contains(s, w) {
			t.Errorf("the split view lacks %q:\n%s", w, s)
		}
	}
	// One schedule: every loss in either run that targets a message both
	// runs send is in the other run too.
	left, right := &m.run.cur, &m.run.cmp
	sends := func(r *result) map[msgKey]bool {
		out := map[msgKey]bool{}
		for i := range r.events {
			if r.events[i].Kind == sim.EvSend && r.occ[i] > 0 {
				out[r.keyOfFault(lossFault(identityOf(&r.events[i].Msg), r.occ[i]))] = true
			}
		}
		return out
	}
	lossKeys := func(r *result) []msgKey {
		var out []msgKey
		for _, f := range r.faults {
			if f.Kind == sim.ChoiceLoss {
				out = append(out, r.keyOfFault(f))
			}
		}
		return out
	}
	ls, rs := sends(left), sends(right)
	lk, rk := lossKeys(left), lossKeys(right)
	if len(lk) == 0 {
		t.Fatal("seed 1 loses nothing under at-least-once; pick another seed")
	}
	for _, k := range lk {
		if rs[k] && !slices.Contains(rk, k) {
			t.Errorf("%v is lost under at-least-once, sent but not lost under idempotent", k)
		}
	}
	for _, k := range rk {
		if ls[k] && !slices.Contains(lk, k) {
			t.Errorf("%v is lost under idempotent, sent but not lost under at-least-once", k)
		}
	}
	m, _ = press(t, m, "c")
	if m.run.cmpSem != sim.AtMostOnce || !strings.Contains(screenOf(m), "at-most-once ≤1") {
		t.Fatalf("c: second column %s:\n%s", m.run.cmpSem, screenOf(m))
	}
	// A what-if applies to both columns.
	m, _ = press(t, m, "v")
	i := slices.IndexFunc(m.run.cur.events, func(e sim.Event) bool { return e.Kind == sim.EvSend && e.Msg.Op == 1 })
	m = cursorTo(t, m, i)
	m, _ = press(t, m, "x", "v")
	f, _, _, ok := m.run.cur.dropTarget(i)
	if !ok || len(m.run.toggles) != 1 {
		t.Fatal("x did not add a what-if")
	}
	k := m.run.cur.keyOfFault(f)
	cf, ok := m.run.cmp.faultOf(k)
	if !ok || !m.run.cmp.applied[cf] {
		t.Errorf("the what-if %v did not apply to the second column", k)
	}
	m, _ = press(t, m, "esc")
	if m.run.mode != modeLanes || m.screen != screenRun {
		t.Errorf("esc in the split view does not go back to the lanes")
	}
}

// TestSemanticsKeepsWhatIfsAndCursor: s re-applies the what-ifs (by the
// message's identity) to the new semantics and keeps the cursor on the
// same logical event.
func TestSemanticsKeepsWhatIfsAndCursor(t *testing.T) {
	sc := lookup(t, "double-billing")
	m := sized(t, New(Options{Start: sc, Semantics: sim.AtLeastOnce, Seed: 3}), 100, 30)
	// Drop op-1's first request: every semantics sends it.
	i := slices.IndexFunc(m.run.cur.events, func(e sim.Event) bool { return e.Kind == sim.EvSend && e.Msg.Op == 1 })
	m = cursorTo(t, m, i)
	m, _ = press(t, m, "x")
	if len(m.run.toggles) != 1 {
		t.Fatalf("x did not add a what-if:\n%s", screenOf(m))
	}
	key := m.run.cur.keys[m.run.tl.cursor]
	m, _ = press(t, m, "s")
	if m.run.spec.sem != sim.Idempotent {
		t.Fatalf("s went to %s", m.run.spec.sem)
	}
	if len(m.run.toggles) != 1 || !strings.Contains(screenOf(m), "WHAT-IF") {
		t.Fatalf("s forgot the what-if:\n%s", screenOf(m))
	}
	f, ok := m.run.cur.faultOf(m.run.toggles[0].key)
	if !ok || !m.run.cur.applied[f] {
		t.Errorf("the what-if is kept but not applied under %s", m.run.spec.sem)
	}
	if got := m.run.cur.keys[m.run.tl.cursor]; got != key {
		t.Errorf("s moved the cursor from %+v to %+v", key, got)
	}
	// Cycle back: the same what-if run as before.
	before := m.run
	m, _ = press(t, m, "S")
	if m.run.spec.sem != sim.AtLeastOnce || len(m.run.toggles) != 1 || m.run.cur.keys[m.run.tl.cursor] != key {
		t.Errorf("S back: %s, %d what-ifs", m.run.spec.sem, len(m.run.toggles))
	}
	_ = before
	// r forgets them.
	m, _ = press(t, m, "r")
	if len(m.run.toggles) != 0 {
		t.Errorf("r kept the what-ifs")
	}
}

// TestSecondEffectRedWithValue: an operation's second effect is drawn red
// in the lanes and the timeline, with its value; the first is not red.
func TestSecondEffectRedWithValue(t *testing.T) {
	sc := lookup(t, "double-billing")
	m := sized(t, New(Options{Start: sc, Seed: 1, Headline: true}), 140, 45)
	r := &m.run.cur
	red := styleBad.Render("x")
	redStart := red[:strings.Index(red, "x")]
	if redStart == "" {
		t.Fatal("styleBad renders no escape code here")
	}
	g := lanesGeometry(r, 140)
	seen := 0
	for i, e := range r.events {
		if r.nth[i] == 0 {
			continue
		}
		row := laneRow(r, g, i, false, downAt(r, i), 140)
		line := strings.Split(timeline{cursor: -1}.view(r, nil, 140, len(r.events)), "\n")[i]
		value := strings.TrimSpace(strings.Fields(ansi.Strip(laneLabel(r.topo, &e, r.nth[i])))[4])
		if !strings.Contains(ansi.Strip(row), "= "+value) {
			t.Errorf("event %d: the effect's lane label lacks its value %s: %q", i, value, ansi.Strip(row))
		}
		if got := strings.Contains(row, redStart) && strings.Contains(line, redStart); got != (r.nth[i] > 1) {
			t.Errorf("event %d (effect no. %d): red in lanes and timeline = %v", i, r.nth[i], got)
		}
		seen++
	}
	if seen == 0 {
		t.Fatal("no effect in the run")
	}
	if !strings.Contains(screenOf(m), "8823,8826") {
		t.Errorf("the wide ledger does not list op-3's two transaction ids:\n%s", screenOf(m))
	}
}

// TestTranslatedScreens: with --lang ro or ru every label, help and flash
// line comes from the message files; no id leaks and no English label is
// left on the first screen.
func TestTranslatedScreens(t *testing.T) {
	t.Cleanup(func() { lang.Set(lang.English) })
	for _, c := range []struct {
		l     lang.Lang
		wants []string
	}{
		{lang.Romanian, []string{"încălcarea 1/1", "taxată de două ori", "garanția semanticii", "ajutor", "EFECT"}},
		{lang.Russian, []string{"нарушение 1/1", "помощь", "ЭФФЕКТ", "сбои"}},
	} {
		lang.Set(c.l)
		m := sized(t, New(Options{Start: lookup(t, "double-billing"), Seed: 1, Headline: true}), 100, 30)
		for _, keys := range [][]string{nil, {"?"}, {"?", "m"}, {"v"}, {"w"}, {"esc", "esc"}} {
			m2, _ := press(t, m, keys...)
			s := screenOf(m2)
			if strings.Contains(s, "tui.") {
				t.Errorf("%s after %v: a message id leaks:\n%s", c.l, keys, s)
			}
			for _, en := range []string{"violation", "its own promise", "lanes", "timeline", "next event", "pick a scenario"} {
				if strings.Contains(s, en) {
					t.Errorf("%s after %v: English %q on screen:\n%s", c.l, keys, en, s)
				}
			}
			if keys == nil {
				for _, w := range c.wants {
					if !strings.Contains(s, w) {
						t.Errorf("%s: the first screen lacks %q:\n%s", c.l, w, s)
					}
				}
			}
		}
	}
}

// TestEveryBuiltIDResolves: the ids the TUI builds at run time (key
// help, legend items, lane labels of every event kind) exist in every
// language; the static ids are checked by report/lang's tests.
func TestEveryBuiltIDResolves(t *testing.T) {
	t.Cleanup(func() { lang.Set(lang.English) })
	topo := New(Options{Start: lookup(t, "double-billing"), Seed: 1}).run.cur.topo
	for _, l := range lang.Languages() {
		lang.Set(l)
		var texts []string
		for _, g := range newRunKeys().FullHelp() {
			for _, b := range g {
				texts = append(texts, b.Help().Desc)
			}
		}
		for _, b := range newPickerKeys().ShortHelp() {
			texts = append(texts, b.Help().Desc)
		}
		texts = append(texts, legendLines(1000)...)
		for k := sim.EventKind(1); k.String() != "unknown"; k++ {
			for _, nth := range []int{1, 2} {
				texts = append(texts, laneLabel(topo, &sim.Event{Kind: k, Peer: sim.NoNode}, nth))
			}
		}
		for _, s := range texts {
			if strings.Contains(s, "tui.") || strings.Contains(s, "event.") || strings.Contains(s, "<no value>") {
				t.Errorf("%s: %q is a missing message or a template without its data", l, s)
			}
		}
	}
}

// TestPickedScenarioOpensOnItsLesson: a scenario picked from the list
// opens like one named on the command line — on its headline run, the
// cursor on the first violation — and --semantics still wins.
func TestPickedScenarioOpensOnItsLesson(t *testing.T) {
	m := pickScenario(t, sized(t, New(Options{Seed: 1, Headline: true}), 80, 24), "double-billing")
	named := New(Options{Start: lookup(t, "double-billing"), Seed: 1, Headline: true})
	if m.run.spec.sem != named.run.spec.sem || m.run.tl.cursor != named.run.tl.cursor {
		t.Errorf("picked: %s at event %d, named: %s at event %d", m.run.spec.sem, m.run.tl.cursor, named.run.spec.sem, named.run.tl.cursor)
	}
	if m.run.spec.sem != sim.AtLeastOnce || m.run.tl.cursor == 0 {
		t.Errorf("picked double-billing opened on %s at event %d, want at-least-once on its second charge", m.run.spec.sem, m.run.tl.cursor)
	}
	m = pickScenario(t, sized(t, New(Options{Seed: 1, Headline: true, Semantics: sim.Idempotent}), 80, 24), "double-billing")
	if m.run.spec.sem != sim.Idempotent {
		t.Errorf("--semantics idem, picked: opened on %s", m.run.spec.sem)
	}
}
