package usage

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/oncesim/once/report/lang"
)

// A flag is looked up under its command, then each parent, then any.
func TestFlagMessageIDs(t *testing.T) {
	got := strings.Join(FlagMessageIDs("once lesson grade", "class-key"), " ")
	want := "flag.once.lesson.grade.class-key flag.once.lesson.class-key flag.once.class-key flag.any.class-key"
	if got != want {
		t.Errorf("FlagMessageIDs = %s, want %s", got, want)
	}
}

// FlagUsages words each description and pflag's "(default …)" in the
// language; a description the messages do not hold (here: one whose
// English has changed) stays as the code writes it; English is pflag's
// own text.
func TestFlagUsages(t *testing.T) {
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	fs.String("semantics", "all", "amo|alo|idem|txn (long ids too), a comma list, or all")
	fs.Uint64("seed", 1, "seed of the keyed fault and jitter decisions")
	fs.Float64("dup", 0, "a description no message holds")
	if got, want := FlagUsages(lang.English, "once run", fs), fs.FlagUsages(); got != want {
		t.Errorf("English:\n%s\nwant pflag's:\n%s", got, want)
	}
	ro := FlagUsages(lang.Romanian, "once run", fs)
	for _, want := range []string{
		`amo|alo|idem|txn (și id-urile lungi), o listă cu virgule sau all (implicit "all")`,
		`seed-ul deciziilor de defecte și de jitter (implicit 1)`,
		"a description no message holds\n",
	} {
		if !strings.Contains(ro, want) {
			t.Errorf("Romanian lacks %q:\n%s", want, ro)
		}
	}
	if strings.Contains(ro, "default") || strings.Contains(ro, defaultMark) {
		t.Errorf("Romanian has pflag's English or the mark:\n%q", ro)
	}
	ru := FlagUsages(lang.Russian, "once run", fs)
	if !strings.Contains(ru, `(по умолчанию "all")`) {
		t.Errorf("Russian lacks (по умолчанию \"all\"):\n%s", ru)
	}
	if strings.Index(ro, "amo|") != strings.Index(fs.FlagUsages(), "amo|") {
		t.Errorf("the descriptions' column moved:\n%s", ro)
	}
}
