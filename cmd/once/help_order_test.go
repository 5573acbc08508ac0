package main

import (
	"strings"
	"testing"
)

// TestHelpThenLang: --help before --lang VALUE (space-separated) is the
// root's help in that language, as after it; -h too.
func TestHelpThenLang(t *testing.T) {
	for _, args := range [][]string{{"--help", "--lang", "ru"}, {"-h", "--lang", "ru"}, {"--lang", "ru", "--help"}, {"run", "--help", "--lang", "ro"}} {
		exit, stdout, stderr := executeWithInput(args, "")
		if exit != 0 || stderr != "" {
			t.Errorf("once %s: exit %d, stderr %q", strings.Join(args, " "), exit, stderr)
			continue
		}
		if want := map[string]string{"ru": "Использование:", "ro": "Utilizare:"}[args[len(args)-1]]; want != "" && !strings.Contains(stdout, want) {
			t.Errorf("once %s: not in its language:\n%s", strings.Join(args, " "), stdout)
		}
	}
}
