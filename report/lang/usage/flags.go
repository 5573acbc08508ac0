package usage

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/oncesim/once/report/lang"
)

// Flag descriptions are messages (locales/flags.<lang>.toml): a flag of
// the command "once lesson grade" is looked up as
// flag.once.lesson.grade.<name>, then under each parent command
// (flag.once.lesson.<name>, flag.once.<name>), then as flag.any.<name>,
// the description most commands share. A message is a flag's only when
// its English is the flag's usage text as the code writes it, so a
// description changed in the code shows in English until its messages
// follow (and TestFlagUsagesTranslated fails meanwhile); the cobra's own
// "help for NAME" and "version for NAME" are flag.any.help and
// flag.any.version with {{.Name}}.

// FlagMessageIDs are the message ids a flag of the command path ("once
// lesson grade") is looked up under, the most particular first.
func FlagMessageIDs(path, name string) []string {
	words := strings.Fields(path)
	ids := make([]string, 0, len(words)+1)
	for i := len(words); i > 0; i-- {
		ids = append(ids, "flag."+strings.Join(words[:i], ".")+"."+name)
	}
	return append(ids, "flag.any."+name)
}

// FlagText is the description of flag f of the command path in l, and
// the message id it came from; with no message whose English is f's
// usage text, it is that text and "".
func FlagText(l lang.Lang, path string, f *pflag.Flag) (text, id string) {
	words := strings.Fields(path)
	data := map[string]any{"Name": ""}
	if len(words) > 0 {
		data["Name"] = words[len(words)-1]
	}
	for _, id := range FlagMessageIDs(path, f.Name) {
		if en := lang.English.Tf(id, data); en == id || en != f.Usage {
			continue
		}
		return l.Tf(id, data), id
	}
	return f.Usage, ""
}

// defaultMark ends every description FlagUsages hands pflag, so that the
// " (default …)" pflag appends after it can be found and worded.
const defaultMark = "\x01"

// FlagUsages is pflag's FlagUsages of flags (the lines of --help's
// "Flags:" and "Global Flags:") with each description and the
// " (default …)" after it in l; in English, pflag's text as it is.
func FlagUsages(l lang.Lang, path string, flags *pflag.FlagSet) string {
	if l == lang.English {
		return flags.FlagUsages()
	}
	worded := pflag.NewFlagSet(path, pflag.ContinueOnError)
	worded.SortFlags = flags.SortFlags
	flags.VisitAll(func(f *pflag.Flag) {
		c := *f
		c.Usage, _ = FlagText(l, path, f)
		c.Usage += defaultMark
		worded.AddFlag(&c)
	})
	text := worded.FlagUsages()
	text = strings.ReplaceAll(text, defaultMark+" (default ", " ("+l.T("usage.default_value")+" ")
	return strings.ReplaceAll(text, defaultMark, "")
}
