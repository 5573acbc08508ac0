package shard

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/oncesim/once/batch"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// A shard file written by RunAndWrite reads back with its part of the
// seeds and one row per config.
func TestRunAndWriteReadsBack(t *testing.T) {
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: sc.Ops, Faults: sc.Faults})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "part1.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	h := Header{Command: "matrix", Args: []string{"double-billing"}, Index: 1, Count: 3}
	if err := RunAndWrite(f, h, batch.Shard{Index: 1, Count: 3}, []*sim.Config{cfg}, []string{"alo"}, 9, 1, nil, batch.Options{}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	want := batch.Shard{Index: 1, Count: 3}.Seeds(9)
	if got.Doc == nil || got.Doc.From != want.Lo || got.Doc.To != want.Hi || len(got.Doc.Rows) != 1 || got.Doc.Rows[0].Label != "alo" {
		t.Errorf("read back %+v, want seeds %d..%d", got.Doc, want.Lo, want.Hi)
	}
}
