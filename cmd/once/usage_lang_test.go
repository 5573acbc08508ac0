package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/report/lang"
)

// cobraEnglish are the words of cobra's own usage template: none is left
// in a Romanian or Russian --help (report/lang/usage).
var cobraEnglish = []string{"Usage:", "Flags:", "Global Flags:", "Available Commands:", "Additional Commands:",
	"Aliases:", "Examples:", "Additional help topics:", "for more information about a command", "[command]", "[flags]"}

// TestUsageInTheUsersLanguage runs --help of every command in Romanian and
// Russian (--lang, and the locale alone) and fails on any of cobra's
// English template words; in English they are all there.
func TestUsageInTheUsersLanguage(t *testing.T) {
	t.Cleanup(func() { lang.Set(lang.English) })
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		paths = append(paths, path)
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() {
				walk(sub, append(append([]string(nil), path...), sub.Name()))
			}
		}
	}
	walk(newRootCmd(&bytes.Buffer{}, &bytes.Buffer{}), nil)
	if len(paths) < 10 {
		t.Fatalf("only %d commands found", len(paths))
	}
	for _, l := range []string{"ro", "ru"} {
		for _, p := range paths {
			var out, errOut bytes.Buffer
			args := append(append([]string(nil), p...), "--help", "--lang="+l)
			if code := execute(args, &out, &errOut); code != exitOK {
				t.Fatalf("once %s: exit %d: %s", strings.Join(args, " "), code, errOut.String())
			}
			for _, w := range cobraEnglish {
				if strings.Contains(out.String(), w) {
					t.Errorf("once %s prints cobra's English %q", strings.Join(args, " "), w)
				}
			}
		}
	}
	t.Setenv("LANG", "ru_RU.UTF-8")
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	var out bytes.Buffer
	execute([]string{"run", "--help"}, &out, &bytes.Buffer{})
	if !strings.Contains(out.String(), "Использование:") || strings.Contains(out.String(), "Usage:") {
		t.Errorf("with LANG=ru_RU the help of run is not in Russian:\n%s", out.String())
	}
	var en bytes.Buffer
	execute([]string{"lesson", "--help", "--lang", "en"}, &en, &bytes.Buffer{})
	for _, w := range []string{"Usage:", "Flags:", "Global Flags:", "Available Commands:", "Examples:", "[flags]"} {
		if !strings.Contains(en.String(), w) {
			t.Errorf("the English help of lesson lacks %q", w)
		}
	}
}
