package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// liveRefusals are once live's refusals a user meets first: a suite's
// flags (issue 32), a target off loopback or not listening, a flag live
// cannot honour against your service, a value out of range. None starts
// a process: each is refused before anything runs.
var liveRefusals = [][]string{
	{"live", "--suite", "payments"},
	{"live", "--suite", "nosuch", "--target", "http://127.0.0.1:8000"},
	{"live", "--suite", "payments", "--target", "http://127.0.0.1:8000", "--save", "plan.txt"},
	{"live", "--suite", "payments", "--target", "http://127.0.0.1:8000", "--broker", "redis"},
	{"live", "--suite", "payments", "--target", "http://127.0.0.1:8000", "--loss", "0.3"},
	{"live", "--suite", "payments", "--target", "http://127.0.0.1:8000", "--format", "trace"},
	{"live", "--suite", "payments", "--target", "http://127.0.0.1:8000", "--rows", "nosuch"},
	{"live", "--suite", "payments", "--target", "http://127.0.0.1:8000", "double-billing"},
	{"live", "double-billing", "--seeds", "3"},
	{"live", "double-billing", "--target", "http://192.0.2.1:8000"},
	{"live", "double-billing", "--target", "http://127.0.0.1:8000", "--pause", "0.2"},
	{"live", "double-billing", "--target", "http://127.0.0.1:8000", "--crash", "0.2"},
	{"live", "double-billing", "--target", "http://127.0.0.1:8000", "--provider-addr", "0.0.0.0:9"},
	{"live", "double-billing", "--restart-cmd", "true"},
	{"live", "double-billing", "--tick", "0"},
	{"live", "double-billing", "--preempt", "0.2"},
	{"live", "concurrent-same-key", "--crash", "0.3"},
	{"live", "double-billing", "--target", "http://127.0.0.1:1"}, // nothing listens: "connection refused" at once
}

// TestLiveRefusalsTranslated runs once live's refusals in English,
// Romanian and Russian: exit 2, one line; the Romanian and Russian lines
// are not the English one and hold no English word outside the scan's
// allow-lists (the flags, values and addresses given stay as written).
func TestLiveRefusalsTranslated(t *testing.T) {
	kept := keptWords(t)
	english := englishOutside(t, kept, "live.ro.toml")
	for _, w := range typedInFlags {
		kept[w] = true
		delete(english, w)
	}
	placeholder := regexp.MustCompile("\\b[A-Z][A-Z0-9_]+\\b|\\S+://\\S+|\"[^\"]*\"")
	for _, args := range liveRefusals {
		code, _, en := executeWithInput(slices.Concat(args, []string{"--lang", "en"}), "")
		if code != exitUsage || strings.Count(en, "\n") != 1 {
			t.Errorf("once %s: exit %d, %q: want exit 2 and one line", strings.Join(args, " "), code, en)
			continue
		}
		given := map[string]bool{}
		for _, w := range asciiWord.FindAllString(strings.Join(args, " "), -1) {
			given[strings.ToLower(w)] = true
		}
		for _, l := range []string{"ro", "ru"} {
			code, _, got := executeWithInput(slices.Concat(args, []string{"--lang", l}), "")
			if code != exitUsage || strings.Count(got, "\n") != 1 {
				t.Errorf("once %s --lang %s: exit %d, %q", strings.Join(args, " "), l, code, got)
			}
			if got == en {
				t.Errorf("once %s --lang %s: the error line is English: %s", strings.Join(args, " "), l, got)
				continue
			}
			var leaks []string
			scan := placeholder.ReplaceAllString(strings.TrimPrefix(got, "once: "), " ")
			if l == "ro" {
				for _, w := range anyWord.FindAllString(scan, -1) {
					if len(w) > 2 && english[strings.ToLower(w)] && !given[strings.ToLower(w)] {
						leaks = append(leaks, w)
					}
				}
			} else {
				for _, w := range asciiWord.FindAllString(scan, -1) {
					if len(w) > 2 && !kept[strings.ToLower(w)] && !given[strings.ToLower(w)] {
						leaks = append(leaks, w)
					}
				}
			}
			if len(leaks) > 0 {
				t.Errorf("once %s --lang %s: English words %v in %q", strings.Join(args, " "), l, leaks, got)
			}
		}
	}
}
