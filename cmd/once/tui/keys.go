package tui

import "charm.land/bubbles/v2/key"

// pickerKeys are the bindings of the scenario picker.
type pickerKeys struct {
	Up, Down, Pick, Help, Quit key.Binding
}

func newPickerKeys() pickerKeys {
	return pickerKeys{
		Up:   key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down: key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Pick: key.NewBinding(key.WithKeys("enter", "space", "right", "l"), key.WithHelp("enter", "run it")),
		Help: key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit: key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
	}
}

// ShortHelp implements help.KeyMap.
func (k pickerKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Pick, k.Help, k.Quit}
}

// FullHelp implements help.KeyMap.
func (k pickerKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down}, {k.Pick}, {k.Help, k.Quit}}
}

// runKeys are the bindings of the run view.
type runKeys struct {
	Next, Prev, PageDown, PageUp, First, Last, NextNotable, PrevNotable key.Binding
	Semantics, SemanticsBack, SeedUp, SeedDown, OpsUp, OpsDown          key.Binding
	Drop, Reset, Lesson, Back, Help, Quit                               key.Binding
	Seed, Step                                                          key.Binding // help only
}

func newRunKeys() runKeys {
	return runKeys{
		Next:          key.NewBinding(key.WithKeys("right", "down", "j"), key.WithHelp("→/j", "next event")),
		Prev:          key.NewBinding(key.WithKeys("left", "up", "k"), key.WithHelp("←/k", "previous event")),
		PageDown:      key.NewBinding(key.WithKeys("pgdown", "ctrl+d"), key.WithHelp("pgdn", "page down")),
		PageUp:        key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		First:         key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g", "first event")),
		Last:          key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G", "last event")),
		NextNotable:   key.NewBinding(key.WithKeys("n", "tab"), key.WithHelp("n", "next fault/effect")),
		PrevNotable:   key.NewBinding(key.WithKeys("N", "shift+tab"), key.WithHelp("N", "previous fault/effect")),
		Semantics:     key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "semantics")),
		SemanticsBack: key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "previous semantics")),
		SeedUp:        key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "seed +1")),
		SeedDown:      key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "seed -1")),
		OpsUp:         key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "ops +1")),
		OpsDown:       key.NewBinding(key.WithKeys("O"), key.WithHelp("O", "ops -1")),
		Drop:          key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "what-if drop")),
		Reset:         key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "forget what-ifs")),
		Lesson:        key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "lesson: why")),
		Back:          key.NewBinding(key.WithKeys("esc", "backspace"), key.WithHelp("esc", "back")),
		Help:          key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:          key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Seed:          key.NewBinding(key.WithKeys("+", "-"), key.WithHelp("+/-", "seed")),
		Step:          key.NewBinding(key.WithKeys("right", "left"), key.WithHelp("←/→", "step")),
	}
}

// ShortHelp implements help.KeyMap.
func (k runKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Step, k.Drop, k.Semantics, k.Seed, k.Back, k.Help, k.Quit}
}

// FullHelp implements help.KeyMap.
func (k runKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Next, k.Prev, k.PageDown, k.PageUp, k.First, k.Last, k.NextNotable, k.PrevNotable},
		{k.Semantics, k.SemanticsBack, k.SeedUp, k.SeedDown, k.OpsUp, k.OpsDown},
		{k.Drop, k.Reset, k.Lesson, k.Back, k.Help, k.Quit},
	}
}
