package tui

import (
	"charm.land/bubbles/v2/key"

	"github.com/oncesim/once/report/lang"
)

// keyHelpID prefixes the message id of a binding's help text.
const keyHelpID = "tui.key."

// pickerKeys are the bindings of the scenario picker.
type pickerKeys struct {
	Up, Down, Pick, Help, Quit key.Binding
}

// bind is a binding whose help text is the message tui.key.<id> in the
// current language.
func bind(keys []string, shown, id string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(shown, lang.T(keyHelpID+id)))
}

func newPickerKeys() pickerKeys {
	return pickerKeys{
		Up:   bind([]string{"up", "k"}, "↑/k", "up"),
		Down: bind([]string{"down", "j"}, "↓/j", "down"),
		Pick: bind([]string{"enter", "space", "right", "l"}, "enter", "pick"),
		Help: bind([]string{"?"}, "?", "help"),
		Quit: bind([]string{"q", "ctrl+c"}, "q", "quit"),
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
	FirstViolation, NextViolation, PrevViolation                        key.Binding
	Semantics, SemanticsBack, SeedUp, SeedDown, OpsUp, OpsDown          key.Binding
	Drop, Reset, Lesson, Metrics, Split, Compare, Back, Help, Quit      key.Binding
	Seed, Step, Violation                                               key.Binding // help only
}

func newRunKeys() runKeys {
	return runKeys{
		Next:           bind([]string{"right", "down", "j"}, "→/j", "next"),
		Prev:           bind([]string{"left", "up", "k"}, "←/k", "prev"),
		PageDown:       bind([]string{"pgdown", "ctrl+d"}, "pgdn", "page_down"),
		PageUp:         bind([]string{"pgup", "ctrl+u"}, "pgup", "page_up"),
		First:          bind([]string{"home", "g"}, "g", "first"),
		Last:           bind([]string{"end", "G"}, "G", "last"),
		NextNotable:    bind([]string{"n", "tab"}, "n", "next_notable"),
		PrevNotable:    bind([]string{"N", "shift+tab"}, "N", "prev_notable"),
		FirstViolation: bind([]string{"f"}, "f", "first_violation"),
		NextViolation:  bind([]string{"]"}, "]", "next_violation"),
		PrevViolation:  bind([]string{"["}, "[", "prev_violation"),
		Semantics:      bind([]string{"s"}, "s", "semantics"),
		SemanticsBack:  bind([]string{"S"}, "S", "semantics_back"),
		SeedUp:         bind([]string{"+", "="}, "+", "seed_up"),
		SeedDown:       bind([]string{"-", "_"}, "-", "seed_down"),
		OpsUp:          bind([]string{"o"}, "o", "ops_up"),
		OpsDown:        bind([]string{"O"}, "O", "ops_down"),
		Drop:           bind([]string{"x"}, "x", "drop"),
		Reset:          bind([]string{"r"}, "r", "reset"),
		Lesson:         bind([]string{"w"}, "w", "lesson"),
		Metrics:        bind([]string{"m"}, "m", "metrics"),
		Split:          bind([]string{"v"}, "v", "split"),
		Compare:        bind([]string{"c"}, "c", "compare"),
		Back:           bind([]string{"esc", "backspace"}, "esc", "back"),
		Help:           bind([]string{"?"}, "?", "help"),
		Quit:           bind([]string{"q", "ctrl+c"}, "q", "quit"),
		Seed:           bind([]string{"+", "-"}, "+/-", "seed"),
		Step:           bind([]string{"right", "left"}, "←/→", "step"),
		Violation:      bind([]string{"f", "]", "["}, "f ] [", "violation"),
	}
}

// ShortHelp implements help.KeyMap: "? help" first, so that a narrow
// screen or a long translation never cuts it off.
func (k runKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Help, k.Step, k.Violation, k.Drop, k.Semantics, k.Split, k.Metrics, k.Quit}
}

// FullHelp implements help.KeyMap.
func (k runKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Next, k.Prev, k.PageDown, k.PageUp, k.First, k.Last, k.NextNotable, k.PrevNotable},
		{k.FirstViolation, k.NextViolation, k.PrevViolation, k.Semantics, k.SemanticsBack, k.SeedUp, k.SeedDown, k.OpsUp, k.OpsDown},
		{k.Drop, k.Reset, k.Lesson, k.Metrics, k.Split, k.Compare, k.Back, k.Help, k.Quit},
	}
}
