package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/internal/fileio"
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
		return asUsage(fileio.CheckOutputFlags(cmd.Flags(), cmd.Name() == "lesson")) // an output path, before any work
	}
}
