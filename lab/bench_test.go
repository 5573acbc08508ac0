package lab_test

import (
	"testing"

	"github.com/oncesim/once/lab"
	"github.com/oncesim/once/lab/labtest"
	"github.com/oncesim/once/sim"
)

// BenchmarkLabSteps measures the harness's lock-step loop: one seeded run
// of at-least-once-duplicate (20 operations) with the Go idempotent
// consumer, in node steps per second (process start included once).
func BenchmarkLabSteps(b *testing.B) {
	bin := labtest.BuildGo(b, "idempotent_consumer")
	l := newLab(b, "at-least-once-duplicate", "consumer", []string{bin}, nil)
	l.Settings.Ops = 20
	steps := 0
	b.ResetTimer()
	for b.Loop() {
		r, err := l.Run(sim.Idempotent, sim.NewRandom(1), nil)
		if err != nil {
			b.Fatal(err)
		}
		steps += len(r.Steps)
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkExploreSchedule measures one explored schedule: fresh
// processes, the prefix replayed, the run judged (double-billing, 2 ops,
// ≤ 1 fault, the Go idempotent service, one worker).
func BenchmarkExploreSchedule(b *testing.B) {
	bin := labtest.BuildGo(b, "idempotent_service")
	l := newLab(b, "double-billing", "service", []string{bin}, nil)
	l.Settings.Ops = 2
	schedules := 0
	b.ResetTimer()
	for b.Loop() {
		res, err := l.Explore(sim.Idempotent, lab.ExploreOptions{MaxFaults: 1, Workers: 1})
		if err != nil || !res.Holds {
			b.Fatalf("explore: %v %+v", err, res)
		}
		schedules += res.Schedules
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(schedules)/1e6, "ms/schedule")
}
