package lang

import (
	"strings"

	"github.com/oncesim/once/internal/usererr"
)

// ErrorLine is err as the one line a command prints after "once: ", in
// the current language where the mistake has a message (an unknown
// scenario, semantics, parameter or fault kind, a bad value or format);
// the flag or file it names stays as written. Errors that carry no
// usererr.Error (cobra's own, for one) stay English.
func ErrorLine(err error) string {
	l := Current()
	if l == English {
		return strings.TrimSpace(err.Error())
	}
	return strings.TrimSpace(usererr.Localize(err, l.Tf))
}
