package usererr

import (
	"regexp"
	"strings"
	"sync"
)

// flagForms are pflag's parse errors a translation can word: the message
// id and the pattern of pflag's English text, whose groups are the fields.
// They are compiled on first use, not at every command's start-up.
var flagForms = sync.OnceValue(func() []flagForm {
	return []flagForm{
		{"unknown_flag", regexp.MustCompile(`^unknown flag: (--\S+)$`), []string{"Flag"}},
		{"unknown_shorthand", regexp.MustCompile(`^unknown shorthand flag: '(.)' in (-\S+)$`), []string{"Flag", "In"}},
		{"flag_needs_argument", regexp.MustCompile(`^flag needs an argument: (--\S+)$`), []string{"Flag"}},
		{"flag_needs_argument", regexp.MustCompile(`^flag needs an argument: '(.)' in -\S+$`), []string{"Flag"}},
	}
})

type flagForm struct {
	id     string
	re     *regexp.Regexp
	fields []string
}

// Flag is a command-line parse error (pflag's, as cobra's flag error
// function receives it) as a worded mistake when its form is one a
// translation words ("unknown flag: --bogus"); any other error is
// returned as it is. The English text is pflag's, unchanged.
func Flag(err error) error {
	if err == nil {
		return nil
	}
	text := strings.TrimSpace(err.Error())
	for _, f := range flagForms() {
		m := f.re.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		data := map[string]any{}
		for i, name := range f.fields {
			data[name] = m[i+1]
		}
		return New(f.id, data, text)
	}
	return err
}
