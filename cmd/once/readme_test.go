package main

import (
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// readmeCommand is one `once` command line of the README or a docs page.
type readmeCommand struct {
	file string // README.md or docs/NAME.md
	line int
	args []string
	text string // the line as written
}

// docPages returns the README and every page under docs/, by path from the
// repository's root: the commands and output blocks a user reads anywhere
// are checked alike.
func docPages(t *testing.T) map[string]string {
	t.Helper()
	pages := map[string]string{}
	paths, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range append([]string{"../../README.md", "../../examples/lab/README.md"}, paths...) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		pages[strings.TrimPrefix(p, "../../")] = string(data)
	}
	return pages
}

// docCommands is readmeCommands over every page of docPages, in path order.
func docCommands(t *testing.T) []readmeCommand {
	t.Helper()
	pages := docPages(t)
	var out []readmeCommand
	for _, name := range slices.Sorted(maps.Keys(pages)) {
		for _, c := range readmeCommands(t, pages[name]) {
			c.file = name
			out = append(out, c)
		}
	}
	return out
}

// readmeCommands extracts every once command line from the README's sh
// blocks: `once …`, `./once …`, `go run ./cmd/once …`, `<(once …)`, each
// piece of a line split at ; & | and cut at a redirection or a comment.
func readmeCommands(t *testing.T, readme string) []readmeCommand {
	t.Helper()
	var out []readmeCommand
	inSh := false
	split := regexp.MustCompile(`;|&&|&|\|`)
	for n, line := range strings.Split(readme, "\n") {
		switch {
		case strings.HasPrefix(line, "```sh"):
			inSh = true
			continue
		case strings.HasPrefix(line, "```"):
			inSh = false
			continue
		}
		if !inSh {
			continue
		}
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		for _, piece := range split.Split(line, -1) {
			toks := shellWords(strings.ReplaceAll(piece, "$i", "0"))
			start := -1
			for i, tok := range toks {
				if tok == "once" || tok == "./once" || tok == "<(once" || (tok == "./cmd/once" && i >= 2 && toks[i-1] == "run" && toks[i-2] == "go") {
					start = i + 1
					break
				}
			}
			if start < 0 || (start >= 2 && toks[start-2] == "-o") { // go build -o once
				continue
			}
			var args []string
			for _, tok := range toks[start:] {
				if strings.HasPrefix(tok, ">") || strings.HasPrefix(tok, "<") {
					break
				}
				args = append(args, strings.TrimSuffix(tok, ")"))
			}
			out = append(out, readmeCommand{file: "README.md", line: n + 1, args: args, text: strings.TrimSpace(piece)})
		}
	}
	return out
}

// shellWords splits a command line as a shell does for the docs' simple
// lines: at blanks, except inside double or single quotes, which it
// removes (--node service="python3 my_service.py" is one argument).
func shellWords(line string) []string {
	var out []string
	var word strings.Builder
	inWord := false
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				out = append(out, word.String())
				word.Reset()
				inWord = false
			}
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		out = append(out, word.String())
	}
	return out
}

// TestReadmeCommandsHaveValidFlags: every once command of the README and
// the docs — those a test runs and those it cannot (live, lab, Slurm, the
// TUI, a million seeds) — names a command that exists, with flags it takes
// and the arguments it wants; the install line names this module's command.
func TestReadmeCommandsHaveValidFlags(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(readmeCommands(t, string(data))); n < 10 {
		t.Errorf("found %d once commands in the README, want at least 10", n)
	}
	cmds := docCommands(t)
	if len(cmds) < 25 {
		t.Fatalf("found %d once commands in the README and docs, want at least 25", len(cmds))
	}
	for _, c := range cmds {
		root := newRootCmd(io.Discard, io.Discard)
		root.InitDefaultCompletionCmd()
		root.InitDefaultVersionFlag()
		cmd, rest, err := root.Find(c.args)
		if err != nil {
			t.Errorf("%s:%d: %s: %v", c.file, c.line, c.text, err)
			continue
		}
		if err := cmd.ParseFlags(rest); err != nil {
			t.Errorf("%s:%d: %s: %v", c.file, c.line, c.text, err)
			continue
		}
		if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil && cmd != root {
			t.Errorf("%s:%d: %s: %v", c.file, c.line, c.text, err)
		}
	}
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	module := strings.Fields(strings.SplitN(string(mod), "\n", 2)[0])[1]
	install := "go install " + module + "/cmd/once@latest"
	if !strings.Contains(string(data), install) {
		t.Errorf("README.md lacks the install line %q", install)
	}
	if _, err := os.Stat(filepath.Join("..", "once")); err != nil {
		t.Errorf("the install line's package: %v", err)
	}
}

// TestReadmeOutputBlocks: a README block that starts with `$ once ARGS`
// shows what the command prints: its lines, up to a line "…", must be the
// output's lines, in order and contiguous (each "…" elides some).
func TestReadmeOutputBlocks(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	blocks := 0
	pages := docPages(t)
	for _, name := range slices.Sorted(maps.Keys(pages)) {
		blocks += checkOutputBlocks(t, name, pages[name])
	}
	if blocks == 0 {
		t.Fatal("no `$ once` output block in the README or the docs")
	}
}

// checkOutputBlocks checks the `$ once` blocks of one page and returns
// how many it has.
func checkOutputBlocks(t *testing.T, name, page string) int {
	t.Helper()
	blocks := 0
	lines := strings.Split(page, "\n")
	for i := 0; i < len(lines); i++ {
		if lines[i] != "```" || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "$ once ") {
			continue
		}
		blocks++
		start := i + 1
		args := strings.Fields(strings.TrimPrefix(lines[start], "$ once "))
		var shown []string
		for i = start + 1; i < len(lines) && lines[i] != "```"; i++ {
			shown = append(shown, lines[i])
		}
		code, out, errOut := runOnce(args...)
		if code != exitOK && code != exitViolation {
			t.Errorf("%s:%d: once %s: exit %d: %s", name, start+1, strings.Join(args, " "), code, errOut)
			continue
		}
		if msg := matchShown(strings.Split(out, "\n"), shown); msg != "" {
			t.Errorf("%s:%d: once %s: %s", name, start+1, strings.Join(args, " "), msg)
		}
	}
	return blocks
}

// matchShown checks shown (segments separated by "…") against the lines
// of got: each segment contiguous, the first at the start, in order.
func matchShown(got, shown []string) string {
	pos := 0
	var seg []string
	check := func(first bool) string {
		if len(seg) == 0 {
			return ""
		}
		for p := pos; p+len(seg) <= len(got); p++ {
			if equalLines(got[p:p+len(seg)], seg) {
				pos = p + len(seg)
				seg = nil
				return ""
			}
			if first {
				break
			}
		}
		return "the README shows\n" + strings.Join(seg, "\n") + "\nbut the command prints\n" + strings.Join(got[:min(len(got), pos+len(seg)+2)], "\n")
	}
	first := true
	for _, l := range shown {
		if strings.TrimSpace(l) == "…" {
			if msg := check(first); msg != "" {
				return msg
			}
			first = false
			continue
		}
		seg = append(seg, l)
	}
	return check(first)
}

func equalLines(a, b []string) bool {
	for i := range a {
		if strings.TrimRight(a[i], " ") != strings.TrimRight(b[i], " ") {
			return false
		}
	}
	return true
}

// TestReadmeIsAFrontPage: the README is a short front page (what once is,
// install, the two commands, a tour, the scenarios, links) — at most 300
// lines — and its prose holds no measured figure (timings, sizes, ratios):
// those are dated in docs/performance.md, where they cannot go stale
// unseen on the front page.
func TestReadmeIsAFrontPage(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > 300 {
		t.Errorf("README.md has %d lines, want at most 300: move a section to docs/ and link it", len(lines))
	}
	measured := regexp.MustCompile(`\b[0-9]+(\.[0-9]+)? ?(ns|µs|ms|s|min|KB|MB|GB|KiB|MiB|GiB)\b|[0-9]+(\.[0-9]+)?×|runs/s`)
	scenarioRow := regexp.MustCompile("^\\| [0-9]+[a-z]? \\| `") // a scenario's summary may tell its story in seconds
	fenced := false
	for n, line := range lines {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if scenarioRow.MatchString(line) {
			continue
		}
		if m := measured.FindString(line); !fenced && m != "" {
			t.Errorf("README.md:%d: a measured figure %q on the front page (it belongs in docs/performance.md): %s", n+1, m, line)
		}
	}
}
