package sim

import "strconv"

// A Violation is an invariant's violation as data, the way a Reason is a
// checker's: the id of its message ("violation.no-phantom-events"), the
// values its sentence quotes, and the English sentence the JSON carries,
// so a report can say it in the reader's language. The zero Violation
// means the invariant held.
type Violation struct {
	ID      string // message id; every id has its text in report/lang's locales
	Count   int    // the number the sentence counts, for its plural form
	Args    []Arg  // the other values the sentence quotes, by name
	English string // the sentence in English, byte for byte what the JSON says
}

// An Arg is one named value a violation's sentence quotes.
type Arg struct {
	Name, Value string
}

// NewViolation returns a violation with message id, the count its sentence
// counts, the English sentence and the values it quotes, named by pairs:
// NewViolation("violation.x", 2, english, "Op", "op-3", "At", "330ms").
func NewViolation(id string, count int, english string, pairs ...string) Violation {
	v := Violation{ID: id, Count: count, English: english}
	for i := 0; i+1 < len(pairs); i += 2 {
		v.Args = append(v.Args, Arg{Name: pairs[i], Value: pairs[i+1]})
	}
	return v
}

// Held reports whether the invariant held (no violation).
func (v Violation) Held() bool { return v.English == "" }

// Data is the violation's values by name, with the count as Count, for a
// message template.
func (v Violation) Data() map[string]any {
	d := map[string]any{"Count": v.Count}
	for _, a := range v.Args {
		d[a.Name] = a.Value
	}
	return d
}

// Itoa spells an integer for a violation's Args.
func Itoa[T ~int | ~int32 | ~int64 | ~uint8 | ~uint32 | ~uint64](n T) string {
	return strconv.FormatInt(int64(n), 10)
}

// A ViolationDetailer is an invariant that gives its violation as data;
// its Violation is the Detail's English sentence. Every invariant of the
// catalog is one.
type ViolationDetailer interface {
	ViolationDetail(finished bool) Violation
}

// DetailOf is inv's violation as data: its ViolationDetail, or, for an
// invariant that gives only English, the sentence with no message id.
func DetailOf(inv Invariant, finished bool) Violation {
	if d, ok := inv.(ViolationDetailer); ok {
		return d.ViolationDetail(finished)
	}
	return Violation{English: inv.Violation(finished)}
}
