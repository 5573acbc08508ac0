// Package tui is `once tui`, the interactive explorer: pick a scenario,
// step through the trace of one seeded run event by event, see the
// per-operation ledger and a space-time diagram of the events around the
// cursor, and ask what-ifs ("what if this message were lost?") that replay
// the run's faults with one message more or less dropped.
//
// The trace is the truth: everything shown is read from sim.Event traces
// and sim.Outcome, never from a live node. A root Model routes messages to
// small components (the picker, the run view with its ledger, lanes and
// timeline), whose update and view functions are pure; running a
// simulation is synchronous, deterministic and takes microseconds, so it
// happens inside Update.
package tui

import (
	"io"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// Options choose where the explorer starts.
type Options struct {
	// Scenarios is the list the picker offers; nil means scenarios.All().
	Scenarios []*scenarios.Scenario
	// Start, when set, opens its run view at once (it is added to the
	// picker's list if missing, e.g. a scenario file).
	Start *scenarios.Scenario
	// Semantics of the first run; 0 means the scenario's first.
	Semantics sim.Semantics
	// Seed of the first run.
	Seed uint64
	// Ops of the first run; 0 means the scenario's default.
	Ops int
	// Faults, when set, replace Start's fault profile in its runs (the
	// fault flags of `once tui SCENARIO`).
	Faults *scenarios.Faults
	// Params are Start's parameters (--set name=value); nil means its
	// defaults.
	Params map[string]string
	// Headline opens Start, and every scenario picked from the list, on
	// its lesson: with no Semantics, Faults, Params or Ops given, its
	// headline run (see headlineSpec); and the cursor on the run's first
	// violation.
	Headline bool
}

// startSpec is the first run of sc under opts.
func (opts Options) startSpec(sc *scenarios.Scenario) runSpec {
	spec := runSpec{sc: sc, sem: opts.Semantics, seed: opts.Seed, ops: opts.Ops, faults: sc.Faults}
	if sc != opts.Start {
		if opts.Headline && opts.Semantics == 0 && opts.Ops == 0 {
			spec.ops = sc.Ops
			spec = headlineSpec(spec)
		}
		return spec
	}
	if opts.Faults != nil {
		spec.faults = *opts.Faults
	}
	spec.params = opts.Params
	if opts.Headline && opts.Semantics == 0 && opts.Faults == nil && len(opts.Params) == 0 && opts.Ops == 0 {
		if spec.ops < 1 {
			spec.ops = sc.Ops
		}
		spec = headlineSpec(spec)
	}
	return spec
}

type screen uint8

const (
	screenPicker screen = iota
	screenRun
)

// Model is the root model of the explorer. It owns the screen size, the
// help line and which screen is active, and routes every other message to
// the active component. Its zero value is not usable; call New.
type Model struct {
	opts   Options
	screen screen
	picker picker
	run    runView
	help   help.Model
	width  int
	height int
}

// New returns the explorer's root model, on the picker or, with
// opts.Start, on the run view of that scenario.
func New(opts Options) Model {
	list := opts.Scenarios
	if list == nil {
		list = scenarios.All()
	}
	if opts.Start != nil && !containsScenario(list, opts.Start) {
		list = append([]*scenarios.Scenario{opts.Start}, list...)
	}
	opts.Scenarios = list
	m := Model{opts: opts, picker: newPicker(list), help: help.New(), width: 80, height: 24}
	if opts.Start != nil {
		m.picker = m.picker.selectName(opts.Start.Name)
		m.run = newRunView(opts.startSpec(opts.Start), m.width, m.height)
		m.screen = screenRun
	}
	m = m.resize()
	if opts.Start != nil && opts.Headline {
		m.run = m.run.firstViolation()
	}
	return m
}

func containsScenario(list []*scenarios.Scenario, sc *scenarios.Scenario) bool {
	for _, s := range list {
		if s == sc {
			return true
		}
	}
	return false
}

// Init implements tea.Model.
func (m Model) Init() tea.Cmd { return nil }

// Update implements tea.Model: global keys (quit, help) first, then the
// active screen.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m.resize(), nil
	case pickedMsg:
		m.run = newRunView(m.opts.startSpec(msg.sc), m.width, m.height)
		m.screen = screenRun
		m = m.resize()
		if m.opts.Headline {
			m.run = m.run.firstViolation()
		}
		return m, nil
	case backMsg:
		m.picker = m.picker.selectName(m.run.spec.sc.Name)
		m.screen = screenPicker
		return m.resize(), nil
	case tea.KeyPressMsg:
		switch msg.String() {
		case "ctrl+c", "q":
			return m, tea.Quit
		case "?":
			m.help.ShowAll = !m.help.ShowAll
			return m.resize(), nil
		}
		var cmd tea.Cmd
		switch m.screen {
		case screenPicker:
			m.picker, cmd = m.picker.update(msg)
		case screenRun:
			if m.help.ShowAll && msg.String() == "esc" {
				m.help.ShowAll = false
				return m.resize(), nil
			}
			m.run, cmd = m.run.update(msg)
		}
		return m, cmd
	}
	return m, nil
}

// helpView is the help line (or, after ?, the full help) of the active
// screen.
func (m Model) helpView() string {
	var s string
	if m.screen == screenPicker {
		s = m.help.View(m.picker.keys)
	} else {
		s = m.help.View(m.run.keys)
	}
	if m.help.ShowAll && m.screen == screenRun {
		// The run view has many keys: flowed into lines, every one of them
		// shows at 80 columns in every language (help's columns would cut
		// the last of them).
		s = styleDim.Render(strings.Join(legendLines(m.width), "\n")) + "\n" + strings.Join(flowKeys(m.run.keys.FullHelp(), m.width), "\n")
	}
	// help's short view can overshoot its width by an item; cut it.
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = fit(l, m.width)
	}
	return strings.Join(lines, "\n")
}

// resize hands each component the screen minus the help.
func (m Model) resize() Model {
	m.help.SetWidth(m.width)
	body := max(1, m.height-strings.Count(m.helpView(), "\n")-1)
	m.picker = m.picker.setSize(m.width, body)
	if m.run.spec.sc != nil {
		m.run = m.run.setSize(m.width, body)
	}
	return m
}

// View implements tea.Model: the active screen above the help.
func (m Model) View() tea.View {
	var body string
	switch m.screen {
	case screenPicker:
		body = m.picker.view()
	case screenRun:
		body = m.run.view()
	}
	lines := strings.Split(body, "\n")
	room := max(1, m.height-strings.Count(m.helpView(), "\n")-1)
	for len(lines) < room {
		lines = append(lines, "")
	}
	if len(lines) > room {
		lines = lines[:room]
	}
	v := tea.NewView(strings.Join(lines, "\n") + "\n" + m.helpView())
	v.AltScreen = true
	v.WindowTitle = "once tui"
	return v
}

// Run starts the explorer on in/out and blocks until the user quits.
func Run(opts Options, in io.Reader, out io.Writer) error {
	p := tea.NewProgram(New(opts), tea.WithInput(in), tea.WithOutput(out))
	_, err := p.Run()
	return err
}

// flowKeys lays out every binding of groups as "key description" items in
// lines of at most width cells, keys in bold.
func flowKeys(groups [][]key.Binding, width int) []string {
	var lines []string
	line, lineW := "", 0
	for _, g := range groups {
		for _, b := range g {
			h := b.Help()
			item := styleTitle.Render(h.Key) + " " + styleDim.Render(h.Desc)
			w := ansi.StringWidth(h.Key) + 1 + ansi.StringWidth(h.Desc)
			switch {
			case lineW == 0:
				line, lineW = item, w
			case lineW+3+w <= width:
				line, lineW = line+"   "+item, lineW+3+w
			default:
				lines = append(lines, line)
				line, lineW = item, w
			}
		}
	}
	return append(lines, line)
}
