package lang

import (
	"strings"

	"github.com/oncesim/once/internal/termtext"
	"github.com/oncesim/once/internal/usererr"
)

// ErrorLine is err as the one line a command prints after "once: ", in
// the current language where the mistake has a message (an unknown
// scenario, semantics, parameter or fault kind, a bad value or format);
// the flag or file it names stays as written. Errors that carry no
// usererr.Error (cobra's own, for one) stay English. Control characters
// are escaped (termtext.Escape): an error may quote what a lab node
// printed, what a live target answered or a text from a file.
func ErrorLine(err error) string {
	l := Current()
	if l == English {
		return termtext.Escape(strings.TrimSpace(err.Error()))
	}
	return termtext.Escape(strings.TrimSpace(usererr.Localize(err, l.Tf)))
}
