//go:build integration

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/report/lessonview"
)

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

// The pack's HTML pages, opened in headless Chromium with mermaid.js from

// offline are the flags that take Chromium off the network: every host
// resolves to nothing and every request goes through a proxy that is not
// there, so a page that fetches anything fails to.
var offline = []string{"--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>"}

// probe is appended to a copy of a page: once it has loaded, it writes
// into the DOM what the page fetched, whether its images drew, and the
// smallest text of its inline SVG as rendered (font size times the
// screen's scale), and the window's size.
const probe = `<script>
window.addEventListener("load", () => {
  const b = document.body;
  b.setAttribute("data-resources", performance.getEntriesByType("resource").map(e => e.name).join(" "));
  b.setAttribute("data-images", [...document.images].filter(i => !(i.complete && i.naturalWidth > 0)).length + "/" + document.images.length);
  let m = Infinity;
  for (const t of document.querySelectorAll("svg text")) {
    const ctm = t.getScreenCTM();
    m = Math.min(m, parseFloat(getComputedStyle(t).fontSize) * Math.hypot(ctm.a, ctm.b));
  }
  b.setAttribute("data-min-text", String(m));
  b.setAttribute("data-window", innerWidth + "x" + innerHeight);
  const r = b.getBoundingClientRect();
  b.setAttribute("data-page", Math.round(r.width) + "x" + Math.round(r.height));
});
</script>
`

var attrRE = regexp.MustCompile(`data-([a-z-]+)="([^"]*)"`)

// probed opens a copy of page (the probe added) in Chromium, offline, at
// the window size given, and returns what the probe found.
func probed(t *testing.T, bin, profile, page, size string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	cp := strings.TrimSuffix(page, ".html") + ".probe.html"
	if err := os.WriteFile(cp, bytes.Replace(data, []byte("</body>"), []byte(probe+"</body>"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(cp)
	dom := chromium(t, bin, profile, append(offline, "--window-size="+size, "--dump-dom", "file://"+cp)...)
	out := map[string]string{}
	if i := strings.Index(dom, "<body"); i >= 0 {
		for _, m := range attrRE.FindAllStringSubmatch(dom[i:strings.Index(dom[i:], ">")+i], -1) {
			out[m[1]] = m[2]
		}
	}
	if out["window"] == "" {
		t.Fatalf("%s: the probe did not run:\n%s", filepath.Base(page), lastLines(dom, 5))
	}
	out["dom"] = dom
	return out
}

// The pack in headless Chromium with networking off: no page fetches
// anything but its own files, every diagram draws (no Mermaid source
// left to a script), the student's edition holds no answer; every slide
// is a 16:9 page at 1920×1080 whose smallest text renders at 18 px or
// more on a concept slide, lessonview.MinDiagramSlideText on a diagram
// slide (one whole trace on the page). No Chromium process outlives the
// test.
func TestIntegrationLessonPackOffline(t *testing.T) {
	bin := needTool(t, "chromium")
	dir := filepath.Join(t.TempDir(), "pack")
	code, _, stderr := executeWithInput([]string{"lesson", "--out", dir, "--class-key", testClassKey, "--steps", "1,3", "--slides", "--lang", string(lang.Romanian)}, "")
	if code != exitOK {
		t.Fatalf("lesson --out: exit %d: %s", code, stderr)
	}
	profile := t.TempDir()
	t.Cleanup(func() {
		if s := survivors(profile); len(s) > 0 {
			t.Errorf("chromium processes survived the test:\n%s", strings.Join(s, "\n"))
		}
	})
	pages, _ := filepath.Glob(filepath.Join(dir, "*", "*.html"))
	images := 0
	for _, p := range pages {
		if strings.Contains(p, string(filepath.Separator)+"slides"+string(filepath.Separator)) && !strings.HasSuffix(p, "index.html") {
			continue
		}
		got := probed(t, bin, profile, p, "1280,2000")
		name := strings.TrimPrefix(p, dir+string(filepath.Separator))
		for _, r := range strings.Fields(got["resources"]) {
			if !strings.HasPrefix(r, "file://") {
				t.Errorf("%s fetched %s", name, r)
			}
		}
		bad, total, _ := strings.Cut(got["images"], "/")
		if bad != "0" {
			t.Errorf("%s: %s of %s images did not draw", name, bad, total)
		}
		n, _ := strconv.Atoi(total)
		images += n
		if strings.Contains(got["dom"], "sequenceDiagram") {
			t.Errorf("%s shows Mermaid source", name)
		}
		if strings.Contains(name, "student") && strings.Contains(got["dom"], lang.Romanian.T("lesson.teacher")) {
			t.Errorf("%s holds the teacher's section", name)
		}
	}
	if images < 4 {
		t.Errorf("only %d diagrams drawn over the pack", images)
	}
	slides, _ := filepath.Glob(filepath.Join(dir, "slides", "*.html"))
	slides = slices.DeleteFunc(slides, func(p string) bool { return strings.HasSuffix(p, "index.html") })
	if len(slides) == 0 {
		t.Fatal("no slide")
	}
	for _, p := range slides[:min(len(slides), 6)] {
		got := probed(t, bin, profile, p, "1920,1080")
		floor := lessonview.MinDiagramSlideText
		if strings.HasSuffix(p, ".0.html") {
			floor = lessonview.MinSlideText // a concept slide
		}
		m, err := strconv.ParseFloat(got["min-text"], 64)
		if err != nil || m < floor-0.01 {
			t.Errorf("%s: smallest text %s px at 1920×1080, want at least %v", filepath.Base(p), got["min-text"], floor)
		}
		if w, _, _ := strings.Cut(got["window"], "x"); w != "1920" || got["page"] != "1920x1080" {
			t.Errorf("%s: page %s in a window %s wide, want a 1920x1080 page (16:9) filling the width", filepath.Base(p), got["page"], got["window"])
		}
		for _, r := range strings.Fields(got["resources"]) {
			t.Errorf("%s fetched %s", filepath.Base(p), r)
		}
	}
}
