//go:build integration

package scenarios_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// registrationOrder is every name a build registers, by kind, in the
// order it numbered them.
type registrationOrder struct {
	Messages, Timers, Sinks, Points, Events []string
}

func currentOrder() registrationOrder {
	topo := scenarios.RoleCatalog().Kinds().Topology()
	var events []string
	for k := sim.EventKind(1); k < sim.NumEventKinds; k++ {
		events = append(events, k.String())
	}
	return registrationOrder{Messages: topo.Messages, Timers: topo.Timers, Sinks: topo.Sinks, Points: topo.Points, Events: events}
}

// orderProbe is a test file written into the renamed copy: it records the
// copy's registration order for the test to compare with its own.
const orderProbe = `package scenarios_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

 func TestRegistrationOrderProbe(t *testing.T) { // indented: make test-split reads ^func Test as this file's own
	topo := scenarios.RoleCatalog().Kinds().Topology()
	var events []string
	for k := sim.EventKind(1); k < sim.NumEventKinds; k++ {
		events = append(events, k.String())
	}
	data, err := json.Marshal(map[string][]string{"Messages": topo.Messages, "Timers": topo.Timers, "Sinks": topo.Sinks, "Points": topo.Points, "Events": events})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(os.Getenv("ONCE_ORDER_OUT"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}
`

// TestIntegrationDigestsWithRenamedFiles copies the module, renames every
// Go file under scenarios/ and sim/ so that each directory's files sort in
// the reverse order (Go hands a package's files to the compiler sorted by
// name, and initialises its variables and runs its init functions in that
// order), and runs the pinned-digest test and the another-numbering test
// there: every digest of testdata/digests.txt must stay as it is. The
// families number their kinds in the fixed order of their Register
// functions (roles.KindNames), not in initialisation order, so the copy
// must also number every message, timer, sink and crash point exactly as
// this build does.
func TestIntegrationDigestsWithRenamedFiles(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	if err := copyModule(root, dst); err != nil {
		t.Fatal(err)
	}
	renamed := 0
	for _, top := range []string{"scenarios", "sim"} {
		n, err := reverseFileOrder(filepath.Join(dst, top))
		if err != nil {
			t.Fatal(err)
		}
		renamed += n
	}
	if renamed < 100 {
		t.Fatalf("renamed %d Go files under scenarios/ and sim/: too few, the copy is wrong", renamed)
	}
	if err := os.WriteFile(filepath.Join(dst, "scenarios", "zzzz_order_probe_test.go"), []byte(orderProbe), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "order.json")
	cmd := exec.Command("go", "test", "-count=1", "-run", "^(TestRegistrationOrderProbe|TestPinnedDigests)$", "./scenarios/")
	cmd.Dir = dst
	cmd.Env = append(os.Environ(), "ONCE_ORDER_OUT="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("with every file under scenarios/ and sim/ renamed (%d files), the pinned digests moved or the build failed: %v\n%s", renamed, err, b)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("the order probe wrote nothing: %v", err)
	}
	var there registrationOrder
	if err := json.Unmarshal(data, &there); err != nil {
		t.Fatal(err)
	}
	here := currentOrder()
	for _, kind := range []struct {
		name        string
		here, there []string
	}{{"messages", here.Messages, there.Messages}, {"timers", here.Timers, there.Timers}, {"sinks", here.Sinks, there.Sinks}, {"crash points", here.Points, there.Points}} {
		if !slices.Equal(kind.here, kind.there) {
			t.Errorf("the renamed copy numbers its %s otherwise (%d differ): %v, here %v", kind.name, differing(kind.here, kind.there), kind.there, kind.here)
		}
	}
	// The another-numbering test, in the renamed build: every pinned run
	// under yet another numbering.
	cmd = exec.Command("go", "test", "-count=1", "./scenarios/internal/renumbered/")
	cmd.Dir = dst
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("renamed files and names registered first: the pinned digests moved: %v\n%s", err, b)
	}
	t.Logf("%d files renamed; %d messages, %d timers, %d sinks and %d crash points numbered as here; every pinned digest unchanged", renamed,
		len(here.Messages), len(here.Timers), len(here.Sinks), len(here.Points))
}

// differing counts the positions where a and b hold different names.
func differing(a, b []string) int {
	n := 0
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}

// copyModule copies the module at src (without .git and bin) to dst.
func copyModule(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel == ".git" || rel == "bin" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
}

// reverseFileOrder renames the Go files of every directory under dir
// (testdata excluded) so that they sort in the reverse of their order: the
// i-th of n becomes r<n-1-i>_<name>, which keeps the _test and GOOS
// suffixes. It returns how many files it renamed.
func reverseFileOrder(dir string) (int, error) {
	renamed := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if d.Name() == "testdata" {
			return filepath.SkipDir
		}
		entries, err := os.ReadDir(path)
		if err != nil {
			return err
		}
		var names []string
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
				names = append(names, e.Name())
			}
		}
		slices.Sort(names)
		for i, name := range names {
			to := fmt.Sprintf("r%03d_%s", len(names)-1-i, name)
			if err := os.Rename(filepath.Join(path, name), filepath.Join(path, to)); err != nil {
				return err
			}
			renamed++
		}
		return nil
	})
	return renamed, err
}
