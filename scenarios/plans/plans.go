// Package plans loads and saves fault plans (`once run --save`, `once
// replay`): a plan resolved against its scenario — a catalog entry, or a
// scenario file confined to the plan's directory or the current directory
// and checked against the hash the plan carries.
package plans

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/oncesim/once/internal/fileio"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// Loaded is a plan resolved against its scenario: the settings it asks
// for and its faults, each bound to what it hits.
type Loaded struct {
	Plan     *scenarios.Plan
	Scenario *scenarios.Scenario
	Settings scenarios.Settings
	Config   *sim.Config
	Faults   []sim.Fault
}

// Load reads the plan at path and resolves it. scenarioFile, when not
// empty, is a scenario file given on the command line (-f): it stands for
// the plan's file directive and may be anywhere; the plan's own file
// directive is confined (see ScenarioFile). Every error names the plan
// (and, where it has one, the line and column) and never echoes the
// content of a file.
func Load(path, scenarioFile string) (*Loaded, error) {
	return LoadFor(path, scenarioFile, nil)
}

// LoadFor is Load with the faults resolved against the topology topo
// returns for the loaded plan (nil: the scenario's own): `once lab`
// plays the scenario with nodes of its own, whose store answers a
// preemption names (msg=read_ok).
func LoadFor(path, scenarioFile string, topo func(*Loaded) (*sim.Topology, error)) (*Loaded, error) {
	data, err := fileio.Read(path, scenarios.MaxPlanFileBytes)
	if err != nil {
		return nil, fmt.Errorf("plan %s: %w", path, err)
	}
	plan, err := scenarios.ParsePlan(path, data)
	if err != nil {
		return nil, err
	}
	sc, err := planScenario(path, plan, scenarioFile)
	if err != nil {
		return nil, err
	}
	if err := plan.Check(path, sc); err != nil {
		return nil, err
	}
	if plan.Ops == 0 {
		plan.Ops = sc.Ops
	}
	set := scenarios.Settings{Semantics: plan.Semantics, Ops: plan.Ops, Faults: plan.Faults, Params: plan.Params,
		MaxEvents: plan.MaxEvents, MaxTime: plan.MaxTime, FaultsUntil: plan.FaultsUntil, Settle: plan.Settle}
	cfg, err := sc.Config(set)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	l := &Loaded{Plan: plan, Scenario: sc, Settings: set, Config: cfg}
	t := cfg.Topology
	if topo != nil {
		if t, err = topo(l); err != nil {
			return nil, err
		}
	}
	if l.Faults, err = plan.Resolve(path, t); err != nil {
		return nil, err
	}
	return l, nil
}

// planScenario is the scenario a plan names: a catalog entry, the -f file
// given on the command line, or the plan's own scenario file.
func planScenario(path string, plan *scenarios.Plan, scenarioFile string) (*scenarios.Scenario, error) {
	at := func(word string) string { return fmt.Sprintf("%s:%d:%d", path, plan.NameLine, len(word)+2) }
	if plan.File == "" && scenarioFile == "" {
		sc, err := scenarios.Lookup(plan.Scenario)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", at("scenario"), err)
		}
		return sc, nil
	}
	var (
		file string
		data []byte
		err  error
	)
	if scenarioFile != "" {
		file = scenarioFile
		data, err = fileio.Read(file, scenarios.MaxScenarioFileBytes)
		if err != nil {
			return nil, fmt.Errorf("scenario file %s: %w", file, err)
		}
	} else if file, data, err = ScenarioFile(path, plan.File); err != nil {
		return nil, fmt.Errorf("%s: file %s: %w", at("file"), plan.File, err)
	}
	if plan.FileHash != "" {
		if got := scenarios.FileHash(data); got != plan.FileHash {
			return nil, fmt.Errorf("%s: file %s: the scenario file changed since the plan was saved (its sha256 differs from the plan's): replay it with the file it was made from", at("file"), file)
		}
	}
	sc, err := scenarios.Load(file, data)
	if err != nil {
		return nil, err
	}
	if plan.Scenario != "" && plan.Scenario != sc.Name {
		return nil, fmt.Errorf("%s: the plan is of scenario %s, the file -f %s holds %s", at("scenario"), plan.Scenario, file, sc.Name)
	}
	return sc, nil
}

// ErrOutside is the error of a plan's file directive that leaves the
// plan's directory and the current directory.
var ErrOutside = errors.New("a plan's file must be a relative path under the plan's directory or the current directory (give another scenario file on the command line with -f FILE)")

// ScenarioFile reads the scenario file a plan at planPath names with ref:
// a relative path under the plan's directory, or else under the current
// directory. An absolute path, a ".." that climbs out, a symbolic link
// that leads out, or a device is refused before anything is read. It
// returns the path the file was read at.
func ScenarioFile(planPath, ref string) (string, []byte, error) {
	local := filepath.FromSlash(ref)
	if !filepath.IsLocal(local) {
		return "", nil, ErrOutside
	}
	var firstErr error
	for _, dir := range []string{filepath.Dir(planPath), "."} {
		data, err := fileio.ReadIn(dir, local, scenarios.MaxScenarioFileBytes)
		if err == nil {
			return filepath.Join(dir, local), data, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			if strings.Contains(err.Error(), "escapes") {
				return "", nil, ErrOutside
			}
			return "", nil, err
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return "", nil, firstErr
}

// FileRef is the file directive of a plan saved at planPath for the
// scenario file at scenarioFile: its path relative to the plan's
// directory, or else to the current directory, where replay looks; and
// the hash of its bytes. A scenario file in neither is an error: replay
// would refuse the plan.
func FileRef(scenarioFile, planPath string) (ref, hash string, err error) {
	data, err := fileio.Read(scenarioFile, scenarios.MaxScenarioFileBytes)
	if err != nil {
		return "", "", fmt.Errorf("scenario file %s: %w", scenarioFile, err)
	}
	abs, err := filepath.Abs(scenarioFile)
	if err != nil {
		return "", "", err
	}
	for _, dir := range []string{filepath.Dir(planPath), "."} {
		base, err := filepath.Abs(dir)
		if err != nil {
			return "", "", err
		}
		if rel, err := filepath.Rel(base, abs); err == nil && filepath.IsLocal(rel) {
			ref = filepath.ToSlash(rel)
			break
		}
	}
	if ref == "" {
		return "", "", fmt.Errorf("the scenario file %s is outside the plan's directory and the current directory, where replay looks for it: save the plan beside it", scenarioFile)
	}
	if strings.ContainsAny(ref, " \t#") {
		return "", "", fmt.Errorf("the scenario file path %q holds a space or '#', which a plan line cannot carry", ref)
	}
	return ref, scenarios.FileHash(data), nil
}

// Save writes each plan to its path (all or nothing, 0644).
func Save(paths []string, plans []*scenarios.Plan, topos []*sim.Topology, faults [][]sim.Fault) error {
	contents := make([][]byte, len(paths))
	for i := range paths {
		var b strings.Builder
		if err := scenarios.WritePlan(&b, plans[i], topos[i], faults[i]); err != nil {
			return fmt.Errorf("%s: %w", paths[i], err)
		}
		contents[i] = []byte(b.String())
	}
	return fileio.WriteAtomic(paths, contents)
}

// Path is where the plan of one semantics goes: file itself for a single
// run, file with ".ALIAS" before its extension for several.
func Path(file string, sem sim.Semantics, n int) string {
	if n == 1 {
		return file
	}
	ext := filepath.Ext(file)
	return strings.TrimSuffix(file, ext) + "." + sem.Alias() + ext
}
