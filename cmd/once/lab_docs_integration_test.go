//go:build integration

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncesim/once/lab/labtest"
)

// TestIntegrationDocLabCommandsRun runs every `once lab` line of the docs
// (the README, docs/*.md and examples/lab/README.md, as TestReadme* reads
// them) as a student would, issue 29 item 4. A placeholder for the
// student's own program (my_service.py, my_consumer.py, ./my_consumer,
// consumer.js) runs the project's correct starter — the Node.js one is
// the protocol page's own block — so it must hold; the naive and racy
// starters must be caught. A --replay line replays the plan the line
// before it saved.
func TestIntegrationDocLabCommandsRun(t *testing.T) {
	root := labtest.Root(t)
	python := labtest.Python(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "consumer.js")
	if err := os.WriteFile(script, []byte(labtest.ProtocolBlock(t, "## 10. Node.js", "js")), 0o644); err != nil {
		t.Fatal(err)
	}
	stand := func(program string) string { // the program a doc line names → the one this test runs
		switch program {
		case "python3 my_service.py":
			return python + " " + root + "/examples/lab/python/idempotent_service.py"
		case "python3 my_consumer.py":
			return python + " " + root + "/examples/lab/python/idempotent_consumer.py"
		case "./my_consumer":
			return labtest.BuildGo(t, "idempotent_consumer")
		case "node consumer.js":
			return labtest.Node(t) + " " + script
		}
		if rest, ok := strings.CutPrefix(program, "python3 examples/"); ok {
			return python + " " + root + "/examples/" + rest
		}
		t.Fatalf("a doc's lab line runs %q: give the test its stand-in", program)
		return ""
	}
	cmds := docCommands(t)
	t.Chdir(dir) // plan.txt and whatever a line writes land here
	ran := map[string]int{}
	for _, c := range cmds {
		if len(c.args) == 0 || c.args[0] != "lab" {
			continue
		}
		args := append([]string(nil), c.args[1:]...)
		broken := false
		for i, a := range args {
			if i > 0 && args[i-1] == "--node" {
				name, program, _ := strings.Cut(a, "=")
				args[i] = name + "=" + stand(program)
				broken = broken || strings.Contains(program, "naive_") || strings.Contains(program, "racy_")
			}
		}
		code, out, errOut := runLabCLI(t, args...)
		ran[c.file]++
		want := exitOK
		if broken {
			want = exitViolation
		}
		if code != want {
			t.Errorf("%s:%d: %s: exit %d, want %d\n%s%s", c.file, c.line, c.text, code, want, out, errOut)
			continue
		}
		explores := strings.Contains(c.text, "--explore")
		switch {
		case explores && want == exitOK && !strings.Contains(out, "HOLDS: every schedule"):
			t.Errorf("%s:%d: %s: no HOLDS line\n%s", c.file, c.line, c.text, out)
		case want == exitViolation && !strings.Contains(out, "shrunk"):
			t.Errorf("%s:%d: %s: a violation without its shrunk counterexample\n%s", c.file, c.line, c.text, out)
		}
	}
	for _, page := range []string{"docs/lab.md", "docs/lab-protocol.md", "examples/lab/README.md"} {
		if ran[page] < 2 {
			t.Errorf("%s: ran %d lab lines, want every one of its lab blocks (at least 2) found", page, ran[page])
		}
	}
	t.Logf("lab lines run per page: %v", ran)
	if s := labtest.Marked(t); len(s) > 0 {
		t.Errorf("processes survived the docs' lab lines: %v", s)
	}
}
