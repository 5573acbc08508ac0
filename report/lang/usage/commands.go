package usage

import (
	"maps"
	"os"
	"strings"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/sim"
)

// Describe gives every command of root its description (Short and Long)
// from the messages help.<path>.short and help.<path>.long in the user's
// language, path being the command's words after "once" joined by dots
// ("help.lesson.grade.long"; "help.once" for root itself). A command
// without a message keeps its own text (hidden commands). Root's commands
// (those added before Describe) end their Long with the exit codes
// (help.exit_codes), after their Long, or their Short when they have none.
//
// The language is known only once the flags are parsed, so Describe sets
// the texts now (in the locale's language) and again each time help is
// printed; flagLang is the value of --lang as parsed so far. data fills
// the messages' placeholders ({{.Roles}}: the lab's playable roles);
// {{.FaultSettings}} is sim's list of fault settings. This file
// sets the commands' fields through texts (cmd passes
// func(c *cobra.Command) (*string, *string) { return &c.Short, &c.Long }),
// as only cmd imports cobra.
func Describe[C Command[C]](root C, texts func(C) (short, long *string), flagLang func() string, data map[string]any) {
	exitCoded := map[C]string{} // root's commands: their own text, for those without a message
	for _, c := range root.Commands() {
		short, long := texts(c)
		exitCoded[c] = *long
		if *long == "" {
			exitCoded[c] = *short
		}
	}
	data = maps.Clone(data)
	data["FaultSettings"] = strings.Join(sim.FaultSettingNames(), ", ")
	apply := func() { describe(root, texts, language(flagLang()), data, exitCoded) }
	apply()
	help := root.HelpFunc()
	root.SetHelpFunc(func(c C, args []string) {
		apply()
		help(c, args)
	})
}

// Command is what Describe uses of a cobra command (*cobra.Command).
type Command[C any] interface {
	comparable
	CommandPath() string
	Commands() []C
	HelpFunc() func(C, []string)
	SetHelpFunc(func(C, []string))
}

// describe sets c's texts and its subcommands' in l.
func describe[C Command[C]](c C, texts func(C) (*string, *string), l lang.Lang, data map[string]any, exitCoded map[C]string) {
	id := "help." + MessageKey(c)
	short, hasShort := message(l, id+".short", data)
	long, hasLong := message(l, id+".long", data)
	cShort, cLong := texts(c)
	if hasShort {
		*cShort = short
	}
	if hasLong {
		*cLong = long
	}
	if base, ok := exitCoded[c]; ok {
		switch {
		case hasLong:
			base = long
		case hasShort:
			base = short
		}
		*cLong = base + "\n\n" + l.T("help.exit_codes")
	}
	for _, sub := range c.Commands() {
		describe(sub, texts, l, data, exitCoded)
	}
}

// MessageKey is the part of c's message ids that names it: its command
// path after the root's name, words joined by dots ("lesson.grade"), or
// the root's name for the root.
func MessageKey(c interface{ CommandPath() string }) string {
	words := strings.Fields(c.CommandPath())
	if len(words) > 1 {
		words = words[1:]
	}
	return strings.Join(words, ".")
}

// message is the message id in l with data, and whether the message
// exists (English has every message there is).
func message(l lang.Lang, id string, data map[string]any) (string, bool) {
	if lang.English.Tf(id, data) == id {
		return "", false
	}
	return l.Tf(id, data), true
}

// language is the language of the help: --lang when given and valid, the
// locale's otherwise.
func language(flag string) lang.Lang {
	if p, err := lang.Parse(flag); err == nil && flag != "" {
		return p
	}
	return lang.FromEnv(os.Getenv)
}
