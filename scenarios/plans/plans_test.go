package plans

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// scenarioYAML is a catalog scenario's file, to save and replay plans of.
func scenarioYAML(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile("../catalog/double-billing.yaml")
	if err != nil {
		t.Fatalf("the catalog file these tests save plans of is gone (renamed? update the path): %v", err)
	}
	return data
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoadConfinesTheFileDirective: a plan's file line may not leave the
// plan's directory (nor the current one): absolute paths, "..", links
// out and devices are refused, and no error shows the file's content.
func TestLoadConfinesTheFileDirective(t *testing.T) {
	dir := t.TempDir()
	secret := "root:x:0:0:TOPSECRET"
	writeFile(t, filepath.Join(dir, "secret.yaml"), secret+"\n")
	plansDir := filepath.Join(dir, "plans")
	writeFile(t, filepath.Join(plansDir, "keep"), "")
	os.Symlink("../secret.yaml", filepath.Join(plansDir, "link.yaml"))
	for ref, want := range map[string]string{
		"/etc/passwd":    "relative path under the plan's directory",
		"../secret.yaml": "relative path under the plan's directory",
		"a/../../x.yaml": "relative path under the plan's directory",
		"link.yaml":      "relative path under the plan's directory",
		"/dev/zero":      "relative path under the plan's directory",
		"missing.yaml":   "no such file",
		"keep/../../etc": "relative path under the plan's directory",
	} {
		plan := filepath.Join(plansDir, "p.plan")
		writeFile(t, plan, "file "+ref+"\nsemantics alo\n")
		_, err := Load(plan, "")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("file %s: %v, want %q", ref, err, want)
			continue
		}
		if strings.Contains(err.Error(), "TOPSECRET") || strings.Contains(err.Error(), "root:") {
			t.Errorf("file %s: the error shows the file's content: %v", ref, err)
		}
		if !strings.HasPrefix(err.Error(), plan+":1:6: ") {
			t.Errorf("file %s: %v, want it at %s:1:6", ref, err, plan)
		}
	}
}

// TestSaveThenLoad: a plan saved for a scenario file names it relative to
// the plan with its hash; it loads from there; an edited scenario file is
// refused; -f on the command line stands for the file, wherever it is,
// and is checked against the hash too.
func TestSaveThenLoad(t *testing.T) {
	yaml := scenarioYAML(t)
	dir := t.TempDir()
	scFile := filepath.Join(dir, "course", "my.yaml")
	writeFile(t, scFile, string(yaml))
	plan := filepath.Join(dir, "course", "plans", "p.plan")
	writeFile(t, plan, "")
	if _, _, err := FileRef(scFile, plan); err == nil {
		t.Errorf("a scenario outside the plan's directory (and the test's cwd): want an error")
	}
	plan = filepath.Join(dir, "course", "p.plan")
	ref, hash, err := FileRef(scFile, plan)
	if err != nil || ref != "my.yaml" || !strings.HasPrefix(hash, "sha256:") {
		t.Fatalf("FileRef = %q, %q, %v", ref, hash, err)
	}
	sc, err := scenarios.Load(scFile, yaml)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: sc.Ops, Faults: sc.Faults})
	if err != nil {
		t.Fatal(err)
	}
	p := &scenarios.Plan{File: ref, FileHash: hash, Semantics: sim.AtLeastOnce, Ops: sc.Ops, Faults: sc.Faults}
	if err := Save([]string{plan}, []*scenarios.Plan{p}, []*sim.Topology{cfg.Topology}, [][]sim.Fault{nil}); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(plan)
	if st.Mode().Perm() != 0o644 {
		t.Errorf("plan mode %v, want 0644", st.Mode().Perm())
	}
	if l, err := Load(plan, ""); err != nil || l.Scenario.Name != sc.Name {
		t.Fatalf("Load: %v", err)
	}
	elsewhere := filepath.Join(t.TempDir(), "copy.yaml")
	writeFile(t, elsewhere, string(yaml))
	if _, err := Load(plan, elsewhere); err != nil {
		t.Errorf("Load with -f elsewhere: %v", err)
	}
	writeFile(t, scFile, string(yaml)+"\n# edited\n")
	if _, err := Load(plan, ""); err == nil || !strings.Contains(err.Error(), "changed since the plan was saved") {
		t.Errorf("an edited scenario file: %v", err)
	}
	writeFile(t, elsewhere, string(yaml)+"\n# edited\n")
	if _, err := Load(plan, elsewhere); err == nil || !strings.Contains(err.Error(), "changed since the plan was saved") {
		t.Errorf("an edited -f file: %v", err)
	}
}

// TestParsePlanDoesNotEchoAForeignFile: a file that is not a plan (a
// password file given by mistake) is refused without its first line.
func TestParsePlanDoesNotEchoAForeignFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "passwd")
	writeFile(t, p, "root:x:0:0:TOPSECRET:/root:/bin/bash\n")
	_, err := Load(p, "")
	if err == nil || strings.Contains(err.Error(), "TOPSECRET") || strings.Contains(err.Error(), "root") {
		t.Errorf("Load(passwd) = %v", err)
	}
}
