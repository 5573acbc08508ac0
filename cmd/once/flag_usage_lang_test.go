package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/report/lang/usage"
)

// everyCommand is every command of once, hidden ones too, each with its
// help flag (and the root's version flag) as cobra adds them at --help.
func everyCommand() []*cobra.Command {
	var out []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.InitDefaultHelpFlag()
		out = append(out, c)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	root := newRootCmd(&bytes.Buffer{}, &bytes.Buffer{})
	root.InitDefaultVersionFlag()
	walk(root)
	return out
}

// englishOutside is englishOnly with the Romanian vocabulary read from
// every Romanian file but skip: a word the flags' own Romanian file
// writes does not make itself Romanian.
func englishOutside(t *testing.T, kept map[string]bool, skip string) map[string]bool {
	t.Helper()
	words := func(glob string, skip string) map[string]bool {
		files, _ := filepath.Glob(glob)
		if len(files) == 0 {
			t.Fatalf("no files %s", glob)
		}
		out := map[string]bool{}
		for _, f := range files {
			if filepath.Base(f) == skip {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range anyWord.FindAllString(string(data), -1) {
				out[strings.ToLower(w)] = true
			}
		}
		return out
	}
	en := words("../../report/lang/locales/*.en.toml", "")
	for w := range words("../../scenarios/catalog/*.yaml", "") {
		en[w] = true
	}
	ro := words("../../report/lang/locales/*.ro.toml", skip)
	for w := range words("../../scenarios/catalog/i18n/*.ro.toml", "") {
		ro[w] = true
	}
	out := map[string]bool{}
	for w := range en {
		if !ro[w] && !kept[w] {
			out[w] = true
		}
	}
	return out
}

// typedInFlags are the words flag descriptions keep in every language
// beyond the scan's allow-lists: values a flag takes that its text names
// outside an a|b list (--code random, --property promise, --reduce none,
// symmetry, por, --track core, advanced, --rows lost,…, --shard index/8,
// --variant dedup-database, live.brokers), and the names of tools, streams
// and formats an engineer types or reads as they are (stdout, stderr,
// pid, loopback, shell, heap, amqp://, 512MiB, SQLite, Markdown, go tool
// pprof), and "standard", Romanian as well as English.
var typedInFlags = []string{"random", "promise", "none", "symmetry", "por", "core", "advanced", "lost", "index", "database", "brokers",
	"stdout", "stderr", "pid", "loopback", "shell", "heap", "amqp", "mib", "gib", "sqlite", "markdown", "pprof", "tool", "standard"}

// TestFlagUsagesTranslated walks every flag of every command: each has a
// message (locales/flags.*.toml) whose English is the code's usage text,
// and its Romanian and Russian descriptions are not the English one and
// hold no English word outside the allow-lists of
// TestNoEnglishLeftInTranslations (placeholders in capitals — FILE, DIR —
// and backquoted names are what the user types).
func TestFlagUsagesTranslated(t *testing.T) {
	kept := keptWords(t)
	english := englishOutside(t, kept, "flags.ro.toml")
	placeholder := regexp.MustCompile("\\b[A-Z][A-Z0-9_]+\\b|`[^`]*`")
	for _, w := range typedInFlags {
		kept[w] = true
		delete(english, w)
	}
	commands := everyCommand()
	flags := 0
	for _, c := range commands {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			flags++
			where := c.CommandPath() + " --" + f.Name
			if _, id := usage.FlagText(lang.English, c.CommandPath(), f); id == "" {
				t.Errorf("%s: no message in locales/flags.en.toml says %q (ids %s)", where, f.Usage, strings.Join(usage.FlagMessageIDs(c.CommandPath(), f.Name), ", "))
				return
			}
			for _, l := range lang.Translated() {
				text, id := usage.FlagText(l, c.CommandPath(), f)
				if text == f.Usage {
					t.Errorf("%s: %s (%s) is the English text %q", where, l, id, text)
					continue
				}
				leaks := map[string]bool{}
				scan := placeholder.ReplaceAllString(text, " ")
				if l == lang.Romanian {
					for _, w := range anyWord.FindAllString(scan, -1) {
						if len(w) > 2 && english[strings.ToLower(w)] {
							leaks[w] = true
						}
					}
				} else {
					for _, w := range asciiWord.FindAllString(scan, -1) {
						if len(w) > 2 && !kept[strings.ToLower(w)] {
							leaks[w] = true
						}
					}
				}
				if len(leaks) > 0 {
					var ws []string
					for w := range leaks {
						ws = append(ws, w)
					}
					sort.Strings(ws)
					t.Errorf("%s --lang %s (%s): English words outside the allow-list: %s", where, l, id, strings.Join(ws, " "))
				}
			}
		})
	}
	if len(commands) < 20 || flags < 200 {
		t.Fatalf("only %d commands and %d flags walked", len(commands), flags)
	}
	t.Logf("%d flags of %d commands", flags, len(commands))
}

// TestHelpFlagsInTheUsersLanguage runs --help of every visible command in
// Romanian and Russian: every flag line is the flag's translated
// description, and pflag's " (default …)" reads in the language.
func TestHelpFlagsInTheUsersLanguage(t *testing.T) {
	t.Cleanup(func() { lang.Set(lang.English) })
	suffix := map[string]string{"ro": `(implicit `, "ru": `(по умолчанию `}
	for _, c := range everyCommand() {
		if !c.IsAvailableCommand() && c.HasParent() {
			continue
		}
		args := strings.Fields(c.CommandPath())[1:]
		for _, l := range []string{"ro", "ru"} {
			var out bytes.Buffer
			a := append(append([]string(nil), args...), "--help", "--lang="+l)
			if code := execute(a, &out, &bytes.Buffer{}); code != exitOK {
				t.Fatalf("once %s: exit %d", strings.Join(a, " "), code)
			}
			if strings.Contains(out.String(), "(default ") {
				t.Errorf("once %s prints pflag's English \"(default …)\":\n%s", strings.Join(a, " "), out.String())
			}
			c.LocalFlags().VisitAll(func(f *pflag.Flag) {
				if f.Hidden {
					return
				}
				text, _ := usage.FlagText(lang.Lang(l), c.CommandPath(), f)
				if text = strings.ReplaceAll(text, "`", ""); !strings.Contains(out.String(), text) {
					t.Errorf("once %s: the line of --%s lacks %q", strings.Join(a, " "), f.Name, text)
				}
			})
		}
	}
	var ro bytes.Buffer
	execute([]string{"run", "--help", "--lang", "ro"}, &ro, &bytes.Buffer{})
	if !strings.Contains(ro.String(), suffix["ro"]+`"all")`) || !strings.Contains(ro.String(), suffix["ro"]+"1)") {
		t.Errorf("once run --help --lang ro: no %q for --semantics or --seed:\n%s", suffix["ro"], ro.String())
	}
	t.Setenv("LANG", "ru_RU.UTF-8")
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	var ru bytes.Buffer
	execute([]string{"live", "--help"}, &ru, &bytes.Buffer{})
	if !strings.Contains(ru.String(), suffix["ru"]+`"all")`) || !strings.Contains(ru.String(), "вероятность того, что сообщение будет доставлено дважды") {
		t.Errorf("with LANG=ru_RU, once live --help has no Russian flag descriptions:\n%s", ru.String())
	}
	var en bytes.Buffer
	execute([]string{"run", "--help", "--lang", "en"}, &en, &bytes.Buffer{})
	if !strings.Contains(en.String(), `probability that a message is delivered twice (default: the scenario's)`) || !strings.Contains(en.String(), `(default "all")`) {
		t.Errorf("the English help of run is not pflag's:\n%s", en.String())
	}
}
