package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// keyMsg turns a key name as bubbletea prints it ("right", "ctrl+c", "x")
// into the KeyPressMsg a terminal would produce.
func keyMsg(s string) tea.KeyPressMsg {
	special := map[string]rune{
		"right": tea.KeyRight, "left": tea.KeyLeft, "up": tea.KeyUp, "down": tea.KeyDown,
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "space": tea.KeySpace,
		"pgdown": tea.KeyPgDown, "pgup": tea.KeyPgUp, "home": tea.KeyHome, "end": tea.KeyEnd,
		"backspace": tea.KeyBackspace,
	}
	if c, ok := special[s]; ok {
		return tea.KeyPressMsg{Code: c}
	}
	if rest, ok := strings.CutPrefix(s, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: []rune(rest)[0], Mod: tea.ModCtrl}
	}
	r := []rune(s)
	return tea.KeyPressMsg{Code: r[0], Text: s}
}

// press sends keys through the root model, running the commands they
// return (the components talk to the root through commands) until one
// quits. It reports whether the program quit.
func press(t *testing.T, m Model, keys ...string) (Model, bool) {
	t.Helper()
	for _, k := range keys {
		var quit bool
		m, quit = send(t, m, keyMsg(k))
		if quit {
			return m, true
		}
	}
	return m, false
}

func send(t *testing.T, m Model, msg tea.Msg) (Model, bool) {
	t.Helper()
	for msg != nil {
		next, cmd := m.Update(msg)
		m = next.(Model)
		if cmd == nil {
			return m, false
		}
		msg = cmd()
		if _, ok := msg.(tea.QuitMsg); ok {
			return m, true
		}
	}
	return m, false
}

// screen is the model's view as plain text.
func screenOf(m Model) string { return ansi.Strip(m.View().Content) }

func sized(t *testing.T, m Model, w, h int) Model {
	t.Helper()
	m, _ = send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// pickScenario moves the picker to name and presses enter.
func pickScenario(t *testing.T, m Model, name string) Model {
	t.Helper()
	i := slices.IndexFunc(m.picker.list, func(sc *scenarios.Scenario) bool { return sc.Name == name })
	if i < 0 {
		t.Fatalf("scenario %s is not in the picker", name)
	}
	for range i {
		m, _ = press(t, m, "j")
	}
	if !strings.Contains(screenOf(m), "▸ "+name) {
		t.Fatalf("the picker's cursor is not on %s:\n%s", name, screenOf(m))
	}
	m, _ = press(t, m, "enter")
	if m.screen != screenRun {
		t.Fatalf("enter on %s did not open the run view:\n%s", name, screenOf(m))
	}
	return m
}

// ledgerLine returns the ledger line of op on the screen.
func ledgerLine(t *testing.T, screen string, op sim.OpID) string {
	t.Helper()
	for _, l := range strings.Split(screen, "\n") {
		f := strings.Fields(strings.TrimLeft(l, " ▸"))
		if len(f) > 0 && f[0] == op.String() {
			if r := []rune(l); len(r) > ledgerWidth {
				l = string(r[:ledgerWidth])
			}
			return l
		}
	}
	t.Fatalf("no ledger line for %s:\n%s", op, screen)
	return ""
}

// reference runs a scenario the way `once run --seed N` does, without
// the TUI, to check what the TUI shows.
func reference(t *testing.T, name string, sem sim.Semantics, seed uint64) *sim.Outcome {
	t.Helper()
	sc, err := scenarios.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	out, err := runs.Outcome(sc, scenarios.Settings{Semantics: sem, Ops: sc.Ops, Faults: sc.Faults}, sim.NewRandom(seed), nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPickDoubleBillingAtLeastOnceDuplicates drives the lesson: pick
// double-billing, switch to at-least-once, and see seed 3 double-charge.
func TestPickDoubleBillingAtLeastOnceDuplicates(t *testing.T) {
	m := sized(t, New(Options{Seed: 3}), 100, 30)
	if s := screenOf(m); !strings.Contains(s, "pick a scenario") || !strings.Contains(s, "double-billing") {
		t.Fatalf("the picker does not list double-billing:\n%s", s)
	}
	m = pickScenario(t, m, "double-billing")
	s := screenOf(m)
	if !strings.Contains(s, "at-most-once") || !strings.Contains(s, "seed 3") {
		t.Fatalf("the run view does not start on at-most-once, seed 3:\n%s", s)
	}
	for m.run.spec.sem != sim.AtLeastOnce {
		m, _ = press(t, m, "s")
	}
	s = screenOf(m)
	if !strings.Contains(s, "at-least-once ≥1") {
		t.Fatalf("the header does not show at-least-once:\n%s", s)
	}
	want := reference(t, "double-billing", sim.AtLeastOnce, 3)
	if want.Count(sim.Duplicated) == 0 {
		t.Fatalf("seed 3 under at-least-once no longer double-charges anyone; pick another seed for this test")
	}
	for _, op := range want.Ops {
		line := ledgerLine(t, s, op.Op)
		if !strings.HasSuffix(strings.TrimSpace(line), op.Verdict.String()) {
			t.Errorf("ledger line %q: want verdict %s", line, op.Verdict)
		}
		if f := strings.Fields(strings.TrimLeft(line, " ▸")); f[3] != fmt.Sprint(op.Effects) {
			t.Errorf("ledger line %q: want %d effects", line, op.Effects)
		}
	}
	if !strings.Contains(s, "duplicated") {
		t.Fatalf("no duplicated verdict on screen:\n%s", s)
	}
}

// TestSemanticsCycleOnlySupported checks that s cycles through the
// scenario's semantics only, and back to the first.
func TestSemanticsCycleOnlySupported(t *testing.T) {
	sc, _ := scenarios.Lookup("double-billing")
	m := New(Options{Start: sc, Seed: 1})
	var seen []sim.Semantics
	for range len(sc.Semantics) {
		seen = append(seen, m.run.spec.sem)
		m, _ = press(t, m, "s")
	}
	if !slices.Equal(seen, sc.Semantics) || m.run.spec.sem != sc.Semantics[0] {
		t.Fatalf("s cycled through %v and ended on %v; want %v and back to the first", seen, m.run.spec.sem, sc.Semantics)
	}
}

// TestSeedAndOpsKeysRerun checks + - o O and that the header follows.
func TestSeedAndOpsKeysRerun(t *testing.T) {
	sc, _ := scenarios.Lookup("double-billing")
	m := New(Options{Start: sc, Seed: 3})
	m, _ = press(t, m, "+", "+", "-", "o", "o", "O")
	if m.run.spec.seed != 4 || m.run.spec.ops != sc.Ops+1 {
		t.Fatalf("seed %d ops %d, want 4 and %d", m.run.spec.seed, m.run.spec.ops, sc.Ops+1)
	}
	s := screenOf(m)
	if !strings.Contains(s, "seed 4") || !strings.Contains(s, fmt.Sprintf("ops %d", sc.Ops+1)) {
		t.Fatalf("header does not show seed 4, ops %d:\n%s", sc.Ops+1, s)
	}
	want := reference(t, "double-billing", sc.Semantics[0], 4)
	if len(m.run.cur.outcome.Ops) != sc.Ops+1 || want.Ops[0].Verdict != m.run.cur.outcome.Ops[0].Verdict {
		t.Fatalf("the run view did not re-run with the new seed and ops")
	}
}

// cursorTo moves the timeline cursor to event i with j/k.
func cursorTo(t *testing.T, m Model, i int) Model {
	t.Helper()
	m, _ = press(t, m, "g")
	for m.run.tl.cursor < i {
		before := m.run.tl.cursor
		m, _ = press(t, m, "j")
		if m.run.tl.cursor == before {
			t.Fatalf("the cursor is stuck at %d before %d", before, i)
		}
	}
	return m
}

// TestWhatIfDropDuplicates is the lesson's core what-if: under
// at-least-once, dropping one response that did arrive makes the client
// retry and the gateway charge twice.
func TestWhatIfDropDuplicates(t *testing.T) {
	sc, _ := scenarios.Lookup("double-billing")
	m := sized(t, New(Options{Start: sc, Semantics: sim.AtLeastOnce, Seed: 3}), 100, 30)
	// Find, from the trace alone, a delivered message whose loss turns an
	// exactly-once operation into a duplicated one.
	target := -1
	var op sim.OpID
	for i, e := range m.run.base.events {
		if e.Kind != sim.EvSend || m.run.base.outcome.Ops[e.Msg.Op-1].Verdict != sim.ExactlyOnce {
			continue
		}
		v := m.run.toggleDrop(i)
		for _, c := range verdictChanges(v.base.outcome, v.cur.outcome) {
			if c.op == e.Msg.Op && c.from.Verdict == sim.ExactlyOnce && c.to.Verdict == sim.Duplicated {
				target, op = i, c.op
			}
		}
		if target >= 0 {
			break
		}
	}
	if target < 0 {
		t.Fatal("no single lost message turns an exactly-once operation into a duplicate under at-least-once")
	}
	m = cursorTo(t, m, target)
	m, _ = press(t, m, "x")
	s := screenOf(m)
	want := fmt.Sprintf("%s: exactly-once → duplicated", op)
	for _, w := range []string{"WHAT-IF", "✂ drop", want, "DROP(loss)"} {
		if !strings.Contains(s, w) {
			t.Errorf("after x the screen lacks %q:\n%s", w, s)
		}
	}
	if !strings.Contains(ledgerLine(t, s, op), "duplicated") {
		t.Errorf("the ledger does not show %s duplicated:\n%s", op, s)
	}
	// x again on the same event undoes the what-if.
	m, _ = press(t, m, "x")
	if m.run.plan != nil || strings.Contains(screenOf(m), "WHAT-IF") {
		t.Fatalf("a second x did not undo the what-if:\n%s", screenOf(m))
	}
	if m.run.cur.outcome.Digest != m.run.base.outcome.Digest {
		t.Fatal("undoing the what-if did not restore the random run")
	}
}

// TestWhatIfDeliverLostResponse undoes a drop the random run took: had
// the lost response arrived, the client would not have retried, and the
// double charge disappears.
func TestWhatIfDeliverLostResponse(t *testing.T) {
	sc, _ := scenarios.Lookup("double-billing")
	m := sized(t, New(Options{Start: sc, Semantics: sim.AtLeastOnce, Seed: 3}), 100, 30)
	target := -1
	for i, e := range m.run.base.events {
		if e.Kind == sim.EvDrop && e.Reason == sim.DropLoss && m.run.base.outcome.Ops[e.Msg.Op-1].Verdict == sim.Duplicated {
			target = i
			break
		}
	}
	if target < 0 {
		t.Fatal("seed 3 has no lost message of a duplicated operation")
	}
	op := m.run.base.events[target].Msg.Op
	// n jumps between faults and effects: it must land on the drop.
	m, _ = press(t, m, "g")
	for m.run.tl.cursor != target {
		before := m.run.tl.cursor
		m, _ = press(t, m, "n")
		if m.run.tl.cursor == before || m.run.tl.cursor > target {
			t.Fatalf("n skipped the drop at %d (cursor %d)", target, m.run.tl.cursor)
		}
	}
	m, _ = press(t, m, "x")
	s := screenOf(m)
	for _, w := range []string{"↩ deliver", fmt.Sprintf("%s: duplicated → exactly-once", op)} {
		if !strings.Contains(s, w) {
			t.Errorf("after x on the drop the screen lacks %q:\n%s", w, s)
		}
	}
	m, _ = press(t, m, "r")
	if m.run.plan != nil || !strings.Contains(screenOf(m), "what-ifs forgotten") {
		t.Fatalf("r did not forget the what-if:\n%s", screenOf(m))
	}
}

// TestWhatIfOnReliableLink: the service→gateway link of double-billing is
// reliable, so a drop there cannot apply and the view says why.
func TestWhatIfOnReliableLink(t *testing.T) {
	sc, _ := scenarios.Lookup("double-billing")
	m := New(Options{Start: sc, Semantics: sim.AtLeastOnce, Seed: 3})
	gw, ok := m.run.base.topo.NodeByName("gateway")
	if !ok {
		t.Fatal("double-billing has no gateway node")
	}
	i := slices.IndexFunc(m.run.base.events, func(e sim.Event) bool { return e.Kind == sim.EvSend && e.Peer == gw })
	if i < 0 {
		t.Fatal("nothing is sent to the gateway")
	}
	m = cursorTo(t, m, i)
	m, _ = press(t, m, "x")
	if s := screenOf(m); !strings.Contains(s, "reliable") {
		t.Fatalf("x on a reliable link does not say why nothing changed:\n%s", s)
	}
	m, _ = press(t, m, "g", "x") // the first event is a timer: nothing to drop
	if s := screenOf(m); !strings.Contains(s, "x drops a message") {
		t.Fatalf("x on a timer does not explain itself:\n%s", s)
	}
}

// TestReplayOfRecordedFaultsIsTheRandomRun is the what-if machinery's
// soundness: the recorded plan replayed with nominal loss on every link
// gives the random run's trace, byte for byte, for every scenario.
func TestReplayOfRecordedFaultsIsTheRandomRun(t *testing.T) {
	for _, sc := range scenarios.All() {
		for _, sem := range sc.Semantics {
			for seed := uint64(1); seed <= 8; seed++ {
				spec := runSpec{sc: sc, sem: sem, seed: seed, ops: sc.Ops}
				base := simulate(spec)
				if base.err != nil {
					t.Fatalf("%s %s seed %d: %v", sc.Name, sem.Alias(), seed, base.err)
				}
				again := simulateWhatIf(spec, base.faults)
				if again.outcome.Digest != base.outcome.Digest {
					t.Errorf("%s %s seed %d: replaying the recorded faults changed the trace", sc.Name, sem.Alias(), seed)
				}
				// Every recorded loss is found again from the trace alone.
				for i, e := range base.events {
					if e.Kind != sim.EvDrop || e.Reason != sim.DropLoss {
						continue
					}
					f, _, why, ok := base.dropTarget(i)
					if !ok || !slices.Contains(base.faults, f) {
						t.Errorf("%s %s seed %d: drop at event %d maps to %+v (%s), not a recorded fault", sc.Name, sem.Alias(), seed, i, f, why)
					}
				}
			}
		}
	}
}

// TestViewFitsTheScreen checks every screen at a few sizes: never wider
// than the terminal, exactly as tall.
func TestViewFitsTheScreen(t *testing.T) {
	for _, c := range []struct {
		name string
		size [2]int
	}{
		{"double-billing", [2]int{80, 24}}, {"double-billing", [2]int{140, 45}}, {"double-billing", [2]int{100, 30}},
		{"double-billing", [2]int{60, 16}}, {"double-billing", [2]int{120, 50}},
		{"outbox", [2]int{80, 24}}, {"outbox", [2]int{140, 45}},
		{"eos-without-sink-cooperation", [2]int{80, 24}}, {"eos-without-sink-cooperation", [2]int{140, 45}},
		{"kafka-zombie-fencing", [2]int{80, 24}},
	} {
		size := c.size
		sc, _ := scenarios.Lookup(c.name)
		m := sized(t, New(Options{Start: sc, Seed: 3, Headline: true}), size[0], size[1])
		check := func(what string) {
			t.Helper()
			lines := strings.Split(screenOf(m), "\n")
			if len(lines) != size[1] {
				t.Errorf("%s %dx%d %s: %d lines", c.name, size[0], size[1], what, len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w > size[0] {
					t.Errorf("%s %dx%d %s: line %d is %d wide: %q", c.name, size[0], size[1], what, i, w, l)
				}
			}
		}
		check("run view")
		m, _ = press(t, m, "f", "]")
		check("violations")
		m, _ = press(t, m, "m")
		check("metrics")
		m, _ = press(t, m, "v")
		check("side by side")
		m, _ = press(t, m, "c", "s")
		check("side by side, other semantics")
		m, _ = press(t, m, "v")
		m, _ = press(t, m, "g", "n", "n", "x")
		check("what-if")
		m, _ = press(t, m, "s")
		check("what-if under another semantics")
		m, _ = press(t, m, "?")
		check("full help")
		m, _ = press(t, m, "?", "w")
		check("lesson")
		m, _ = press(t, m, "esc")
		check("picker")
	}
}

// TestHelpBackAndQuit covers the global keys.
func TestHelpBackAndQuit(t *testing.T) {
	sc, _ := scenarios.Lookup("double-billing")
	m := sized(t, New(Options{Start: sc, Seed: 1}), 100, 30)
	if s := screenOf(m); !strings.Contains(s, "? help") {
		t.Fatalf("no short help line:\n%s", s)
	}
	m, _ = press(t, m, "?")
	if s := screenOf(m); !strings.Contains(s, "previous semantics") || !strings.Contains(s, "what-if") {
		t.Fatalf("? does not show the full help:\n%s", s)
	}
	m, _ = press(t, m, "?", "esc")
	if m.screen != screenPicker || !strings.Contains(screenOf(m), "▸ double-billing") {
		t.Fatalf("esc does not go back to the picker on double-billing:\n%s", screenOf(m))
	}
	if _, quit := press(t, m, "q"); !quit {
		t.Fatal("q does not quit the picker")
	}
	m, _ = press(t, m, "enter")
	if _, quit := press(t, m, "ctrl+c"); !quit {
		t.Fatal("ctrl+c does not quit the run view")
	}
}

// TestLanesMarks checks the space-time rendering of a few event kinds.
func TestLanesMarks(t *testing.T) {
	sc, _ := scenarios.Lookup("double-billing")
	m := sized(t, New(Options{Start: sc, Semantics: sim.AtLeastOnce, Seed: 3}), 100, 30)
	r := &m.run.cur
	g := lanesGeometry(r, 100)
	for i, e := range r.events {
		row := ansi.Strip(laneRow(r, g, i, false, downAt(r, 0), 100))
		var want string
		switch e.Kind {
		case sim.EvSend:
			want = "●"
		case sim.EvDeliver:
			want = "◆"
		case sim.EvDrop:
			want = "✕"
		case sim.EvEffect:
			want = "★"
		default:
			continue
		}
		if !strings.Contains(row, want) {
			t.Errorf("event %d (%s): lane row %q lacks %q", i, e.Kind, row, want)
		}
	}
}

// TestWhatIfOnFaultFreeProfile: with no loss in the profile the random
// run offers no loss choice at all; a what-if still drops the message
// (the what-if run offers loss everywhere, and the plan decides).
func TestWhatIfOnFaultFreeProfile(t *testing.T) {
	sc, _ := scenarios.Lookup("double-billing")
	quiet := *sc
	quiet.Faults = scenarios.Faults{}
	m := New(Options{Start: &quiet, Semantics: sim.AtLeastOnce, Seed: 1})
	if n := len(m.run.base.faults); n != 0 || m.run.base.outcome.Count(sim.ExactlyOnce) != quiet.Ops {
		t.Fatalf("a fault-free run took %d faults and has %d exactly-once operations", n, m.run.base.outcome.Count(sim.ExactlyOnce))
	}
	client := m.run.base.events[0].Node // the client starts the first operation
	i := slices.IndexFunc(m.run.base.events, func(e sim.Event) bool { return e.Kind == sim.EvSend && e.Peer == client })
	if i < 0 {
		t.Fatal("nothing is sent back to the client")
	}
	m = cursorTo(t, m, i)
	m, _ = press(t, m, "x")
	op := m.run.base.events[i].Msg.Op
	s := screenOf(m)
	if !strings.Contains(s, fmt.Sprintf("%s: exactly-once → duplicated", op)) {
		t.Fatalf("dropping the first response on a fault-free profile did not duplicate %s:\n%s", op, s)
	}
}
