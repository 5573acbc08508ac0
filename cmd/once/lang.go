package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/internal/fileio"
	"github.com/oncesim/once/internal/usererr"
	"github.com/oncesim/once/report/lang"
)

// registerLang adds --lang to every command and, before any of them runs,
// sets the language of what it prints: the flag, else the locale
// (LC_ALL, LC_MESSAGES, LANG), else English. JSON output stays English.
func registerLang(root *cobra.Command) {
	var value string
	root.PersistentFlags().StringVar(&value, "lang", "",
		"language of the texts: en|ro|ru (default from LC_ALL, LC_MESSAGES or LANG; JSON stays English)")
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		l := lang.FromEnv(os.Getenv)
		if value != "" {
			var err error
			if l, err = lang.Parse(value); err != nil {
				return usageErr("--lang %q: want en, ro or ru", value)
			}
		}
		lang.Set(l)
		return asUsage(fileio.CheckGivenFlags(cmd.Flags(), cmd.Name() == "lesson")) // an output path, before any work
	}
}

// flagError is a flag parse error worded in the user's language, which
// PersistentPreRunE has not set yet: --lang if parsed before the error,
// else the locale.
func flagError(cmd *cobra.Command, err error) error {
	l := lang.FromEnv(os.Getenv)
	if f := cmd.Flags().Lookup("lang"); f != nil {
		if p, perr := lang.Parse(f.Value.String()); perr == nil && f.Value.String() != "" {
			l = p
		}
	}
	lang.Set(l)
	return asUsage(usererr.Flag(err))
}
