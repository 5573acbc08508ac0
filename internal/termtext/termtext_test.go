package termtext

import "testing"

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"charged twice":         "charged twice",
		"two\nlines\tand a tab": "two\nlines\tand a tab",
		"BEL\a":                 `BEL\a`,
		"\x1b]0;pwned\a title":  `\x1b]0;pwned\a title`,
		"\x1b[2J\x1b[31mred":    `\x1b[2J\x1b[31mred`,
		"over\rwrite":           `over\rwrite`,
		"nul\x00 del\x7f":       `nul\x00 del\x7f`,
		"c1 csi \u009b2J":       `c1 csi \u009b2J`,
		"bidi \u202egnp.exe":    `bidi \u202egnp.exe`,
		"bad \xff utf-8 · ok":   `bad \xff utf-8 · ok`,
		"ünïcode — stays, ≤1 ≥1 =1 ★ ✓": "ünïcode — stays, ≤1 ≥1 =1 ★ ✓",
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}
