package scenarios

import (
	"sort"
	"strconv"
)

// Readers of scalar fields shared by the loader: a number is written
// unquoted, and a mapping's keys are visited in file order.

// unquoted rejects quoted text where the format wants a number or a
// boolean: ops: "3" is the text 3, and a file that quotes it probably
// means something else.
func (l *loader) unquoted(s Scalar, field, want string) error {
	if s.Quoted {
		return l.errAt(s, "%s: %q is quoted text, not %s (write it without quotes)", field, s.Text, want)
	}
	return nil
}

// integer reads a numeric field: an unquoted integer in [lo, hi].
func (l *loader) integer(s Scalar, field string, lo, hi int) (int, error) {
	if err := l.unquoted(s, field, "a number"); err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(s.Text)
	if err != nil || n < lo || n > hi {
		return 0, l.errAt(s, "%s: %q is not an integer in [%d, %d]", field, s.Text, lo, hi)
	}
	return n, nil
}

// byPosition returns the keys of a mapping read from the file in the
// order their values appear there, so that the first error reported is
// the first in the file, on every run (a Go map has no order).
func byPosition(m map[string]Scalar) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := m[keys[i]], m[keys[j]]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return keys[i] < keys[j]
	})
	return keys
}
