// Package usage is cobra's usage text in the user's language: the
// template of `once CMD --help` and of the usage a command error prints,
// its headings ("Usage:", "Flags:", "Global Flags:", "Available
// Commands:", "Examples:"…) from the messages usage.* in en, ro and ru.
// It does not import cobra (only cmd/ does): cmd gives cobra Template
// and Funcs.
package usage

import (
	"os"
	"strings"
	"text/template"

	"github.com/spf13/pflag"

	"github.com/oncesim/once/report/lang"
)

// Funcs are the template functions Template calls (cmd adds them to
// cobra's): usageT (a heading), usageMore (the closing sentence),
// usageFlags (a command's flag lines, each description a message:
// FlagUsages) and usageLine (the command's use line, its "[flags]"
// translated). flagLang
// is the value of --lang as parsed so far: help is printed before any
// command runs, so before the language is set; the locale's language
// when it is empty or not a language.
func Funcs(flagLang func() string) template.FuncMap {
	current := func() lang.Lang {
		l := lang.FromEnv(os.Getenv)
		if p, err := lang.Parse(flagLang()); err == nil && flagLang() != "" {
			l = p
		}
		return l
	}
	return template.FuncMap{
		"usageT":     func(id string) string { return current().T("usage." + id) },
		"usageMore":  func(path string) string { return current().Tf("usage.more", map[string]any{"Command": path}) },
		"usageFlags": func(path string, flags *pflag.FlagSet) string { return FlagUsages(current(), path, flags) },
		"usageLine": func(c interface{ UseLine() string }) string {
			return strings.Replace(c.UseLine(), "[flags]", current().T("usage.flags_word"), 1)
		},
	}
}

// Template is cobra's default usage template (v1.10) with every English
// heading, sentence and flag description a message of the user's
// language.
const Template = `{{usageT "usage"}}{{if .Runnable}}
  {{usageLine .}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} {{usageT "command"}}{{end}}{{if gt (len .Aliases) 0}}

{{usageT "aliases"}}
  {{.NameAndAliases}}{{end}}{{if .HasExample}}

{{usageT "examples"}}
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}{{$cmds := .Commands}}{{if eq (len .Groups) 0}}

{{usageT "commands"}}{{range $cmds}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{else}}{{range $group := .Groups}}

{{.Title}}{{range $cmds}}{{if (and (eq .GroupID $group.ID) (or .IsAvailableCommand (eq .Name "help")))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if not .AllChildCommandsHaveGroup}}

{{usageT "additional_commands"}}{{range $cmds}}{{if (and (eq .GroupID "") (or .IsAvailableCommand (eq .Name "help")))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

{{usageT "flags"}}
{{usageFlags .CommandPath .LocalFlags | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableInheritedFlags}}

{{usageT "global_flags"}}
{{usageFlags .CommandPath .InheritedFlags | trimTrailingWhitespaces}}{{end}}{{if .HasHelpSubCommands}}

{{usageT "topics"}}{{range .Commands}}{{if .IsAdditionalHelpTopicCommand}}
  {{rpad .CommandPath .CommandPathPadding}} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableSubCommands}}

{{usageMore .CommandPath}}{{end}}
`
