package main

import (
	"strings"

	"github.com/oncesim/once/internal/usererr"
	"github.com/oncesim/once/report/lang"
)

// errorLine is err as the one line printed after "once: ", in the
// reader's language where the mistake has a message (an unknown scenario,
// semantics, parameter or fault kind, a bad value or format); the flag or
// file it names stays as written. Cobra's own errors stay English.
func errorLine(err error) string {
	l := lang.Current()
	if l == lang.English {
		return strings.TrimSpace(err.Error())
	}
	return strings.TrimSpace(usererr.Localize(err, l.Tf))
}
