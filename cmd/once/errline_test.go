package main

import (
	"strings"
	"testing"
)

// errorCases are the common mistakes a student makes on the command line.
var errorCases = [][]string{
	{"run", "nosuch"},
	{"run", "double-biling"},
	{"run", "double-billing", "--semantics", "xyz"},
	{"run", "double-billing", "--semantics", "txn"},
	{"run", "double-billing", "--set", "nokey=1"},
	{"run", "double-billing", "--set", "store=bogus"},
	{"run", "double-billing", "--set", "store"},
	{"explore", "double-billing", "--faults", "bogus"},
	{"run", "double-billing", "--format", "xml"},
	{"run", "double-billing", "--ops", "0"},
	{"matrix", "nosuch"},
	{"explain", "nosuch"},
}

// The common input mistakes are one line in the reader's language, exit
// 2, the flag they name as written; in English, the line is the error's
// own text.
func TestErrorLinesTranslated(t *testing.T) {
	for _, args := range errorCases {
		code, _, en := executeWithInput(append(args[:len(args):len(args)], "--lang", "en"), "")
		if code != exitUsage || strings.Count(en, "\n") != 1 || !strings.HasPrefix(en, "once: ") {
			t.Errorf("once %s: exit %d, stderr %q: want exit 2 and one line", strings.Join(args, " "), code, en)
			continue
		}
		for _, l := range []string{"ro", "ru"} {
			code, _, got := executeWithInput(append(args[:len(args):len(args)], "--lang", l), "")
			if code != exitUsage || strings.Count(got, "\n") != 1 {
				t.Errorf("once %s --lang %s: exit %d, stderr %q", strings.Join(args, " "), l, code, got)
			}
			if got == en {
				t.Errorf("once %s --lang %s: the error line is English: %s", strings.Join(args, " "), l, got)
			}
			if args[len(args)-2][0] == '-' && !strings.Contains(got, args[len(args)-2]) {
				t.Errorf("once %s --lang %s: %q does not name %s", strings.Join(args, " "), l, got, args[len(args)-2])
			}
		}
	}
}
