package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/svg"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// maxSweepPoints bounds the points of one sweep.
const maxSweepPoints = 1000

type sweepOptions struct {
	scenarioFlag
	sim     simFlags // --semantics, --ops, the fault flags, --set and the budgets
	vary    string
	seeds   int
	workers int
	format  string
	batch   batchFlags
	prof    profileFlags
	canon   []string // the arguments that decide the result (for shards)
}

func newSweepCmd() *cobra.Command { return newSweepCmdWith(&sweepOptions{}) }

// newSweepCmdWith builds the sweep command on o (merge fills o.batch with
// the shards' tallies first).
func newSweepCmdWith(o *sweepOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "sweep SCENARIO | -f FILE --vary name=from:to:step",
		Short: "Vary one parameter or fault probability and measure lost, duplicated and effects per point",
		Long: `sweep varies one scenario parameter (a duration or an integer, e.g. ttl or
timeout) or one fault setting (` + strings.Join(sim.FaultSettingNames(), ", ") + `) from
--vary's from to its to in steps, and runs every point on seeds 1..--seeds
under one semantics. Per point it reports the share of runs that lost or
duplicated an operation (95% Wilson intervals), the effects per operation,
and the average of every metric the scenario declares. Everything else
keeps the scenario's defaults unless set with --set, --ops or a fault flag.

Durations take units (ttl=0:5s:500ms); probabilities are numbers in [0,1]
(loss=0:0.5:0.05). At most 1000 points.`,
		Args: o.scenarioArgs,
		Example: `  once sweep double-billing --vary ttl=0:3s:250ms
  once sweep expired-dedup-ttl --vary ttl=15s:90s:15s --seeds 500
  once sweep double-billing --set store=memory --vary crash=0:0.3:0.05
  once sweep double-billing --semantics alo --vary ack-loss=0:0.6:0.1
  once sweep at-least-once-duplicate --vary crash=0:0.5:0.05 --seeds 500 --format json
  once sweep -f my-scenario.yaml --vary timeout=100ms:2s:100ms`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.canon = canonicalArgs(cmd, args)
			return o.prof.around(func() error {
				return o.batch.writing(cmd.OutOrStdout(), func(w io.Writer) error { return runSweep(o, args, w, cmd.ErrOrStderr()) })
			})
		},
	}
	o.registerFile(cmd)
	fl := cmd.Flags()
	f := &o.sim
	f.flags = fl
	fl.StringVar(&o.vary, "vary", "", "what to sweep: name=from:to:step, name a parameter (ttl, timeout…) or a fault setting ("+strings.Join(sim.FaultSettingNames(), ", ")+")")
	fl.StringVar(&f.semantics, "semantics", "idem", "one semantics: amo|alo|idem|txn (default: idem, or the scenario's first)")
	fl.IntVar(&o.seeds, "seeds", 200, "runs per point: seeds 1..N")
	fl.IntVar(&o.workers, "workers", runtime.GOMAXPROCS(0), "parallel runs (default: GOMAXPROCS); the result does not depend on it")
	fl.StringVar(&o.format, "format", "text", "output: text|json|svg (svg: a chart of the rates per point, for slides)")
	fl.IntVar(&f.ops, "ops", 0, "number of operations (default: the scenario's)")
	f.registerFaults(fl)
	fl.StringArrayVar(&f.sets, "set", nil, "scenario parameter name=value (repeatable)")
	f.registerBudgets(fl)
	o.batch.register(fl)
	o.prof.register(fl)
	return cmd
}

// sweepPoint is one value of the swept parameter.
type sweepPoint struct {
	value string  // as --set or a fault flag takes it
	x     float64 // as a number (ticks for durations)
}

// sweepSpec is a parsed --vary.
type sweepSpec struct {
	name   string
	kind   string // duration, int, probability
	from   string
	to     string
	step   string
	points []sweepPoint
}

// parseVary reads name=from:to:step against sc. Every error names --vary.
func parseVary(spec string, sc *scenarios.Scenario) (*sweepSpec, error) {
	bad := func(format string, args ...any) error {
		return usageErr("--vary %s: %s", spec, fmt.Sprintf(format, args...))
	}
	name, rng, ok := strings.Cut(spec, "=")
	name = strings.TrimSpace(name)
	parts := strings.Split(rng, ":")
	if !ok || name == "" || len(parts) != 3 {
		return nil, usageErr("--vary %q: want name=from:to:step (e.g. ttl=0:5s:500ms or loss=0:0.5:0.05)", spec)
	}
	s := &sweepSpec{name: name}
	var param *scenarios.Param
	for i := range sc.Params {
		if sc.Params[i].Name == name {
			param = &sc.Params[i]
		}
	}
	switch {
	case param != nil && param.Kind == scenarios.ParamDuration:
		s.kind = "duration"
	case param != nil && param.Kind == scenarios.ParamInt:
		s.kind = "int"
	case param != nil:
		return nil, bad("parameter %s is an enum (%s): sweep a duration or integer parameter, or a fault probability", name, param.Describe())
	case sim.IsFaultSetting(name):
		s.kind = "int" // a duration setting, in milliseconds
		if _, ok := sim.ParseFaultKind(name); ok {
			s.kind = "probability"
		}
	default:
		var names []string
		for _, p := range sc.Params {
			if p.Kind != scenarios.ParamEnum {
				names = append(names, p.Name)
			}
		}
		names = append(names, sim.FaultSettingNames()...)
		return nil, bad("unknown parameter %q (scenario %s can sweep: %s)", name, sc.Name, strings.Join(names, ", "))
	}
	var nums [3]float64
	for i, what := range []string{"from", "to", "step"} {
		text := strings.TrimSpace(parts[i])
		switch s.kind {
		case "duration":
			d, err := scenarios.ParseDuration(text)
			if err != nil {
				return nil, bad("%s: %v", what, err)
			}
			nums[i] = float64(d)
		case "int":
			n, err := strconv.ParseInt(text, 10, 64)
			if err != nil || n < -1e15 || n > 1e15 {
				return nil, bad("%s: %q is not an integer", what, text)
			}
			nums[i] = float64(n)
		default:
			f, err := strconv.ParseFloat(text, 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, bad("%s: %q is not a number", what, text)
			}
			if what != "step" && (f < 0 || f > 1) {
				return nil, bad("%s: %s is not a probability in [0,1]", what, text)
			}
			nums[i] = f
		}
	}
	from, to, step := nums[0], nums[1], nums[2]
	if !(step > 0) {
		return nil, bad("step must be greater than 0")
	}
	if from > to {
		return nil, bad("from must not be greater than to")
	}
	steps := math.Floor((to-from)/step + 1e-9)
	if steps+1 > maxSweepPoints {
		return nil, bad("%.0f points, at most %d (take a larger step)", steps+1, maxSweepPoints)
	}
	format := func(x float64) string {
		switch s.kind {
		case "duration":
			return sim.Time(x).String()
		case "int":
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(math.Round(x*1e9)/1e9, 'f', -1, 64)
	}
	s.from, s.to, s.step = format(from), format(to), format(step)
	for i := 0; i <= int(steps); i++ {
		x := from + float64(i)*step
		if s.kind != "probability" {
			x = math.Round(x)
		} else {
			x = min(math.Round(x*1e9)/1e9, 1)
		}
		s.points = append(s.points, sweepPoint{value: format(x), x: x})
	}
	return s, nil
}

func runSweep(o *sweepOptions, args []string, stdout, stderr io.Writer) error {
	if err := checkFormat(o.format, "text", "json", "svg"); err != nil {
		return err
	}
	if err := checkSeedsWorkers(o.seeds, o.workers); err != nil {
		return err
	}
	if o.vary == "" {
		return usageErr("--vary: say what to sweep, e.g. --vary ttl=0:5s:500ms or --vary loss=0:0.5:0.05")
	}
	sc, err := o.scenario(args)
	if err != nil {
		return err
	}
	f := &o.sim
	if !f.flags.Changed("semantics") && !sc.Supports(sim.Idempotent) && len(sc.Semantics) > 0 {
		f.semantics = sc.Semantics[0].Alias()
	}
	if strings.Contains(f.semantics, ",") || strings.TrimSpace(f.semantics) == "all" {
		return usageErr("--semantics %s: sweep takes one semantics", f.semantics)
	}
	sems, err := f.semanticsFor(sc)
	if err != nil {
		return usageErr("%v", err)
	}
	sem := sems[0]
	spec, err := parseVary(o.vary, sc)
	if err != nil {
		return err
	}
	if sim.IsFaultSetting(spec.name) && f.flags.Changed(spec.name) {
		return usageErr("--vary %s and --%s: give one", spec.name, spec.name)
	}
	for _, s := range f.sets {
		if k, _, err := scenarios.ParseSet(s); err == nil && k == spec.name {
			return usageErr("--vary %s and --set %s: give one", spec.name, s)
		}
	}
	base, err := f.settingsFor(sc)
	if err != nil {
		return usageErr("%v", err)
	}
	base.Semantics = sem
	cfgs := make([]*sim.Config, len(spec.points))
	sets := make([]scenarios.Settings, len(spec.points))
	for i, p := range spec.points {
		set := base
		set.Params = map[string]string{}
		for k, v := range base.Params {
			set.Params[k] = v
		}
		if sim.IsFaultSetting(spec.name) {
			if err := set.Faults.Set(spec.name, p.value); err != nil {
				return usageErr("--vary %v", err)
			}
		} else {
			set.Params[spec.name] = p.value
		}
		cfg, err := sc.Config(set)
		if err != nil {
			return usageErr("--vary %s=%s: %v", spec.name, p.value, err)
		}
		cfgs[i], sets[i] = cfg, set
	}
	var metrics []string
	if cfgs[0].Metrics != nil {
		for _, m := range cfgs[0].Metrics() {
			metrics = append(metrics, m.Name())
		}
	}
	if err := o.batch.parse(); err != nil {
		return err
	}
	labels := make([]string, len(spec.points))
	for i, p := range spec.points {
		labels[i] = spec.name + "=" + p.value
	}
	tallies, done, err := o.batch.tallies("sweep", o.canon, cfgs, labels, o.seeds, o.workers, progressBar(stderr, "sweep"), stdout)
	if done || err != nil {
		return err
	}

	vals, _ := scenarios.ResolveParams(sc.Params, base.Params)
	doc := report.SweepDoc{
		Schema: report.SweepSchema, Scenario: sc.Name, Semantics: sem.String(), Alias: sem.Alias(), Seeds: o.seeds,
		Vary: report.SweepVary{Name: spec.name, Kind: spec.kind, From: spec.from, To: spec.to, Step: spec.step},
		Ops:  base.Ops, Faults: base.Faults, Params: map[string]string{}, Metrics: append([]string{}, metrics...),
	}
	for _, kv := range vals.Sorted() {
		k, v, _ := strings.Cut(kv, "=")
		doc.Params[k] = v
	}
	for _, m := range metrics {
		doc.MetricUnits = append(doc.MetricUnits, roles.MetricUnit(m))
	}
	for i, p := range spec.points {
		pt := report.NewSweepPoint(p.value, p.x, &tallies[i].Tally, metrics)
		if seed := tallies[i].FirstUnfinished; seed != 0 {
			pt.Replay = replayCommand(sc, sem, seed, sets[i])
		}
		doc.Points = append(doc.Points, pt)
	}
	if err := markSweep(&doc, sc, spec); err != nil {
		return err
	}
	switch o.format {
	case "json":
		return report.WriteJSON(stdout, doc)
	case "svg":
		return svg.WriteSweep(stdout, doc)
	}
	return report.WriteSweepText(colorprofile.NewWriter(stdout, os.Environ()), doc)
}
