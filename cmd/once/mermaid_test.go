package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios"
)

var participantLine = regexp.MustCompile(`^\s*participant (\S+)`)

// TestEveryCanonicalMermaidIsReadable: the default run of every catalog
// scenario gives, per semantics, a Mermaid diagram of at most
// report.MermaidMaxLines lines (the transactional one of
// eos-without-sink-cooperation was 595), declaring only participants it
// uses, with every repeated effect in a red box; --format md holds one
// fenced Mermaid block per semantics.
func TestEveryCanonicalMermaidIsReadable(t *testing.T) {
	for _, sc := range scenarios.All() {
		for _, sem := range sc.Semantics {
			code, out, errOut := runOnce("run", sc.Name, "--semantics", sem.Alias(), "--format", "mermaid")
			if code != 0 {
				t.Fatalf("%s %s: exit %d: %s", sc.Name, sem.Alias(), code, errOut)
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(lines) > report.MermaidMaxLines+1 {
				t.Errorf("%s %s: %d lines, want at most %d", sc.Name, sem.Alias(), len(lines), report.MermaidMaxLines+1)
			}
			var body []string
			var declared []string
			for _, l := range lines[1:] {
				if m := participantLine.FindStringSubmatch(l); m != nil {
					declared = append(declared, m[1])
					continue
				}
				body = append(body, l)
			}
			text := strings.Join(body, "\n")
			for _, p := range declared {
				if !regexp.MustCompile(`(^|[\s,>x-])` + regexp.QuoteMeta(p) + `([\s,:-]|$)`).MatchString(text) {
					t.Errorf("%s %s: participant %s declared but never used", sc.Name, sem.Alias(), p)
				}
			}
			for i, l := range body {
				if strings.Contains(l, "effect!") && (i == 0 || !strings.Contains(body[i-1], "rect rgb(254, 226, 226)")) {
					t.Errorf("%s %s: repeated effect not in a red box: %s", sc.Name, sem.Alias(), l)
				}
			}
		}
		code, md, errOut := runOnce("run", sc.Name, "--format", "md")
		if code != 0 {
			t.Fatalf("%s md: exit %d: %s", sc.Name, code, errOut)
		}
		if n := strings.Count(md, "```mermaid\n"); n != len(sc.Semantics) {
			t.Errorf("%s --format md: %d mermaid blocks, want one per semantics (%d)", sc.Name, n, len(sc.Semantics))
		}
	}
}
