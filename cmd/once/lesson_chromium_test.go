package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/report/lessonview"
)

// mermaidVersion is the mermaid package the HTML pages load (see
// lessonview.MermaidScript), installed from the npm registry for the test.
const mermaidVersion = "12.3.0"

// needTool finds a program the test needs; without it the test skips on a
// developer's machine and fails in CI (CI=true), where .ci/run installs it.
func needTool(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is not installed, and CI=%q requires this test to run", name, os.Getenv("CI"))
	}
	t.Skipf("%s is not installed", name)
	return ""
}

// mermaidJS installs the mermaid package from the npm registry once into a
// cache directory (ONCE_MERMAID_DIR, else under the temporary directory)
// and returns its browser bundle.
func mermaidJS(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("ONCE_MERMAID_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "once-mermaid-"+mermaidVersion)
	}
	js := filepath.Join(dir, "node_modules", "mermaid", "dist", "mermaid.min.js")
	if _, err := os.Stat(js); err == nil {
		return js
	}
	npm := needTool(t, "npm")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--loglevel=error",
		"--prefix", dir, "mermaid@"+mermaidVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install mermaid@%s: %v\n%s", mermaidVersion, err, out)
	}
	return js
}

// chromium runs headless Chromium with its own profile on one page and
// returns its standard output. Chromium and every process it started are
// killed on every path when it returns.
func chromium(t *testing.T, bin, profile string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	all := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + profile, "--virtual-time-budget=20000"}, args...)
	cmd := exec.CommandContext(ctx, bin, all...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("chromium: %v", err)
	}
	err := cmd.Wait()
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // whatever it left behind in its group
	if err != nil {
		t.Fatalf("chromium %s: %v\n%s", strings.Join(args, " "), err, lastLines(stderr.String(), 10))
	}
	return stdout.String()
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// survivors lists the processes still running with profile on their
// command line (zombies, which run nothing, aside).
func survivors(profile string) []string {
	procs, _ := filepath.Glob("/proc/[0-9]*")
	var out []string
	for _, p := range procs {
		cmdline, err := os.ReadFile(filepath.Join(p, "cmdline"))
		if err != nil || !bytes.Contains(cmdline, []byte(profile)) {
			continue
		}
		if stat, err := os.ReadFile(filepath.Join(p, "stat")); err == nil {
			if f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:])); len(f) > 0 && f[0] == "Z" {
				continue
			}
		}
		out = append(out, filepath.Base(p)+": "+strings.ReplaceAll(string(cmdline), "\x00", " "))
	}
	return out
}

var (
	mermaidCodeRE = regexp.MustCompile(`(?s)<code class="language-mermaid"[^>]*>(.*?)</code>`)
	roleRE        = regexp.MustCompile(`aria-roledescription="([a-z]+)"`)
)

// The pack's HTML pages, opened in headless Chromium with mermaid.js from
// the npm registry: every Mermaid block parses and renders to a sequence
// diagram (a syntax error renders as an "error" diagram, and fails), and
// the index and the first step are saved as screenshots
// (ONCE_LESSON_SHOTS=DIR keeps them for a person to look at). No Chromium
// process outlives the test.
func TestLessonPackInChromium(t *testing.T) {
	bin := needTool(t, "chromium")
	js := mermaidJS(t)
	dir := writeTestPack(t, lang.English)
	// The pages load mermaid.js from a CDN; here they load the local copy.
	script, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mermaid.min.js"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "*.html"))
	for _, p := range pages {
		data, _ := os.ReadFile(p)
		if !bytes.Contains(data, []byte(lessonview.MermaidScript)) {
			t.Fatalf("%s does not load %s", filepath.Base(p), lessonview.MermaidScript)
		}
		if err := os.WriteFile(p, bytes.ReplaceAll(data, []byte(lessonview.MermaidScript), []byte("mermaid.min.js")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	profile := t.TempDir()
	t.Cleanup(func() {
		if s := survivors(profile); len(s) > 0 {
			t.Errorf("chromium processes survived the test:\n%s", strings.Join(s, "\n"))
		}
	})
	blocks := 0
	for _, p := range pages {
		md, _ := os.ReadFile(strings.TrimSuffix(p, ".html") + ".md")
		want := len(mermaidRE.FindAll(md, -1))
		dom := chromium(t, bin, profile, "--dump-dom", "file://"+p)
		codes := mermaidCodeRE.FindAllStringSubmatch(dom, -1)
		if len(codes) != want {
			t.Errorf("%s: %d Mermaid blocks in the page, %d in its Markdown", filepath.Base(p), len(codes), want)
		}
		for i, c := range codes {
			role := roleRE.FindStringSubmatch(c[1])
			if !strings.Contains(c[1], "<svg") || role == nil || role[1] != "sequence" {
				what := "no diagram"
				if role != nil {
					what = role[1] + " diagram"
				}
				t.Errorf("%s: Mermaid block %d rendered %s", filepath.Base(p), i+1, what)
			}
		}
		blocks += len(codes)
	}
	if blocks == 0 {
		t.Fatal("no Mermaid block rendered anywhere")
	}
	shots := os.Getenv("ONCE_LESSON_SHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	for _, name := range []string{"index", "01-double-billing"} {
		png := filepath.Join(shots, name+".png")
		chromium(t, bin, profile, "--window-size=1280,2400", "--screenshot="+png, "file://"+filepath.Join(dir, name+".html"))
		data, err := os.ReadFile(png)
		if err != nil || !bytes.HasPrefix(data, []byte("\x89PNG")) || len(data) < 10_000 {
			t.Errorf("%s: no screenshot (%v, %d bytes)", name, err, len(data))
		}
	}
	if s := survivors(profile); len(s) > 0 {
		t.Errorf("chromium processes survived:\n%s", strings.Join(s, "\n"))
	}
}
