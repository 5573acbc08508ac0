package main

import (
	"bytes"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/lab"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/report/lang/usage"
)

// TestEveryCommandDescribedInTheUsersLanguage holds every available
// command (subcommands and cobra's own included) to a description from
// the messages: a Short in English (help.<path>.short, so in ro and ru,
// which TestUIMessagesTranslated holds to English's ids), and, after
// `--help --lang ro|ru`, a Short and a Long with no English word outside
// the glossary's kept terms and the code's identifiers, and no number in
// the English form. Command syntax is not prose: metavariables (FILE),
// flags, backquoted commands, paths, directories (teacher/), keys
// (role:), what-if and `once …` lines are skipped.
// Only the Long of completion's shell subcommands is cobra's (English).
func TestEveryCommandDescribedInTheUsersLanguage(t *testing.T) {
	t.Cleanup(func() { lang.Set(lang.English) })
	kept := keptWords(t)
	english := englishOnly(t, kept)
	// Names the descriptions use as they are: the lab's playable roles,
	// tools and formats (loopback, stdin, ssh, Markdown, JSON Schema's
	// "draft"), the values --track and help take.
	for _, w := range asciiWord.FindAllString(lab.PlayableRoles()+" loopback stdin stdout ssh markdown draft advanced help", -1) {
		kept[strings.ToLower(w)] = true
	}
	syntax := regexp.MustCompile("`[^`]*`|\\bonce [a-z]+[^\\n]*|--?[a-z][\\w-]*|\\b[A-Z][A-Z_]+\\b|[\\w./-]*[/.][\\w./*-]+|\\b\\w+=[^\\s)]*|\\b\\w+/|\\b[a-z]+:[\\s,]|\\bwhat-ifs?\\b")
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		paths = append(paths, path)
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() || sub.Name() == "help" {
				walk(sub, append(slices.Clone(path), sub.Name()))
			}
		}
	}
	root := newRootCmd(&bytes.Buffer{}, &bytes.Buffer{})
	root.InitDefaultHelpCmd()
	walk(root, nil)
	if len(paths) < 20 {
		t.Fatalf("only %d commands found", len(paths))
	}
	for _, l := range []string{"en", "ro", "ru"} {
		for _, p := range paths {
			root := newRootCmd(&bytes.Buffer{}, &bytes.Buffer{})
			root.SetArgs(append(slices.Clone(p), "--help", "--lang="+l))
			if err := root.Execute(); err != nil {
				t.Fatalf("once %s --help: %v", strings.Join(p, " "), err)
			}
			c, _, err := root.Find(p)
			if err != nil {
				t.Fatal(err)
			}
			id := "help." + usage.MessageKey(c)
			if l == "en" {
				if lang.English.T(id+".short") == id+".short" {
					t.Errorf("once %s has no message %s.short", strings.Join(p, " "), id)
				}
				continue
			}
			text := c.Short
			if lang.English.T(id+".long") != id+".long" || c.Parent() == root || c == root {
				text += "\n" + c.Long
			}
			if c.Short == "" || c.Short == lang.English.T(id+".short") {
				t.Errorf("once %s --lang %s: Short %q is not translated", strings.Join(p, " "), l, c.Short)
			}
			text = syntax.ReplaceAllString(text, " ")
			if n := numberLeaks(text); len(n) > 0 {
				t.Errorf("once %s --help --lang %s: numbers in the English form: %s", strings.Join(p, " "), l, strings.Join(n, " "))
			}
			var leaks []string
			words := anyWord
			if l == "ru" {
				words = asciiWord
			}
			for _, w := range words.FindAllString(text, -1) {
				lw := strings.ToLower(w)
				if len(w) > 2 && ((l == "ro" && english[lw]) || (l == "ru" && !kept[lw])) {
					leaks = append(leaks, w)
				}
			}
			if len(leaks) > 0 {
				sort.Strings(leaks)
				t.Errorf("once %s --help --lang %s: English words outside the allow-list: %s", strings.Join(p, " "), l, strings.Join(slices.Compact(leaks), " "))
			}
		}
	}
}
