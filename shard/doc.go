// Package shard is the file format of one part of a sharded batch
// (`once matrix|sweep|explore --shard i/n`) and its merge (`once merge`):
// the documents, their checksum, the parsing of --shard, and the checks a
// merge makes before it trusts a shard — a checksum over the content and
// the command that made it, counts that are consistent with the shard's
// seeds, and, for a search, a counterexample that replays.
//
// A shard is data, never a command: its arguments are the search's
// parameters only (cmd/once parses them as its command's and refuses any
// flag naming a file, an output, a profile or help), a scenario file
// travels as its text (ScenarioFile), and the arguments must agree with
// what was tallied (Merged.CheckTallies, ExploreMerged.CheckSearch). The
// checksum is not a signature: it catches damage and careless edits; what
// merge cannot recompute — a search that holds — is only as good as the
// machine that ran the shard.
package shard

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/oncesim/once/batch"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// Schema names the format of a shard file. v2 added the checksum; v3
// carries the text of the scenario files instead of their paths in the
// arguments, and an explore shard's bounds. Older files are refused (their
// arguments name files, or their bounds cannot be checked).
const Schema = "once.shard/v3"

// MaxShards bounds --shard's count.
const MaxShards = 100_000

// MaxFileBytes bounds one shard file.
const MaxFileBytes = 64 << 20

// Header is what every shard file starts with: the command that made it
// and which part of it the file is.
type Header struct {
	Schema   string   `json:"schema"`
	Checksum string   `json:"checksum"` // sha256 of the document with this field empty
	Command  string   `json:"command"`  // matrix, sweep or explore
	Args     []string `json:"args"`     // the arguments that decide the result: the search's parameters only
	Index    int      `json:"index"`
	Count    int      `json:"count"`
	// ScenarioFiles are the scenario files (-f) the command read, as
	// text: the arguments name no file.
	ScenarioFiles []ScenarioFile `json:"scenario_files,omitempty"`
}

// Doc is the shard file of a matrix or a sweep: the tally of every row
// over the shard's seeds.
type Doc struct {
	Header
	Seeds int    `json:"seeds"` // of the whole batch
	From  uint64 `json:"from"`  // this shard's seeds
	To    uint64 `json:"to"`
	Rows  []Row  `json:"rows"`
}

// Row is the tally of one row (a matrix expectation, a sweep point) over
// the shard's seeds: counts, first seeds and exact metric sums.
type Row struct {
	Label           string               `json:"label"`
	Runs            int                  `json:"runs"`
	Finished        int                  `json:"finished"`
	WithLost        int                  `json:"runs_with_lost"`
	WithRefused     int                  `json:"runs_with_refused"`
	WithNeverDone   int                  `json:"runs_never_completing,omitempty"`
	WithDup         int                  `json:"runs_with_duplicated"`
	InvViolated     int                  `json:"runs_with_violation"`
	Ops             int                  `json:"ops"`
	Effects         int                  `json:"effects"`
	Metrics         []scenarios.ExactSum `json:"metric_sums"`
	FirstLost       uint64               `json:"first_lost,omitempty"`
	FirstDup        uint64               `json:"first_duplicated,omitempty"`
	FirstViolation  uint64               `json:"first_violation,omitempty"`
	FirstUnfinished uint64               `json:"first_unfinished,omitempty"`
	// Unsettled are the runs of a liveness phase (--faults-until) that
	// did not settle; FirstUnsettled the first of them.
	Unsettled      int    `json:"runs_unsettled,omitempty"`
	FirstUnsettled uint64 `json:"first_unsettled,omitempty"`
}

// NewRow is the row of label with tally t.
func NewRow(label string, t *batch.Tally) Row {
	return Row{
		Label: label, Runs: t.Runs, Finished: t.Finished, WithLost: t.WithLost, WithRefused: t.WithRefused, WithDup: t.WithDup,
		WithNeverDone: t.NeverDone,
		InvViolated:   t.InvViolated, Ops: t.Ops, Effects: t.Effects, Metrics: append([]scenarios.ExactSum{}, t.Metrics...),
		FirstLost: t.FirstLost, FirstDup: t.FirstDup, FirstViolation: t.FirstViolation, FirstUnfinished: t.FirstUnfinished,
		Unsettled: t.Unsettled, FirstUnsettled: t.FirstUnsettled,
	}
}

// Tally is the row as a batch tally.
func (r *Row) Tally() batch.Tally {
	return batch.Tally{
		Tally: scenarios.Tally{Runs: r.Runs, Finished: r.Finished, WithLost: r.WithLost, WithRefused: r.WithRefused, WithDup: r.WithDup,
			NeverDone: r.WithNeverDone, InvViolated: r.InvViolated, Ops: r.Ops, Effects: r.Effects, Metrics: r.Metrics},
		FirstLost: r.FirstLost, FirstDup: r.FirstDup, FirstViolation: r.FirstViolation, FirstUnfinished: r.FirstUnfinished,
		Unsettled: r.Unsettled, FirstUnsettled: r.FirstUnsettled,
	}
}

// ExploreDoc is the shard file of `once explore --shard i/n`: the verdict
// of one part of the choice tree, its first counterexample as the choices
// that reach it — which are also its position in the canonical order, so
// merge can pick the first of all shards — and its counts.
type ExploreDoc struct {
	Header
	Search   Search `json:"search"` // the bounds it searched within
	Holds    bool   `json:"holds"`
	Complete bool   `json:"complete"`
	Cut      string `json:"cut,omitempty"`
	Choices  []int  `json:"choices"` // the counterexample's path; [] when it holds
	// Branched are the places the shard's search took a fault's or a
	// preemption's alternative (search.Result.Branched).
	Branched    []search.Branch `json:"branched"`
	States      int             `json:"states"`
	Schedules   int             `json:"schedules"`
	Transitions int             `json:"transitions"`
	Revisits    int             `json:"revisits"`
	MaxDepth    int             `json:"max_depth"`
	MemoryBytes int64           `json:"memory_bytes"`
	// Symmetry, SymmetryRenames, SymmetryOff and Collapsed are the
	// symmetry reduction's (search.Result): applied and what it renames,
	// or why not, and the revisits it made.
	Symmetry        bool             `json:"symmetry"`
	SymmetryRenames []string         `json:"symmetry_renames,omitempty"`
	SymmetryOff     *sim.SymmetryOff `json:"symmetry_off,omitempty"`
	Collapsed       int              `json:"collapsed"`
}

// header gives access to the common fields of both documents.
type document interface{ header() *Header }

func (h *Header) header() *Header { return h }

// checksum is the sha256 of d's JSON with the checksum field empty: it
// covers the content and the command that made it.
func checksum(d document) string {
	h := d.header()
	saved := h.Checksum
	h.Checksum = ""
	data, err := json.Marshal(d)
	h.Checksum = saved
	if err != nil {
		panic(fmt.Sprintf("shard: %v", err)) // the documents are plain data
	}
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Encode writes d as indented JSON with its schema and checksum set.
func Encode(d document) ([]byte, error) {
	h := d.header()
	h.Schema = Schema
	if h.Args == nil {
		h.Args = []string{}
	}
	h.Checksum = checksum(d)
	data, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// ParseSpec reads --shard: "i/n", or "index/n" to take i from the
// environment of a Kubernetes Indexed Job or a Slurm array (lookup is
// os.LookupEnv but for tests).
func ParseSpec(spec string, lookup func(string) (string, bool)) (batch.Shard, error) {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	bad := func(why string) error { return fmt.Errorf("--shard %s: %s", spec, why) }
	is, ns, ok := strings.Cut(spec, "/")
	if !ok {
		return batch.Shard{}, bad("want i/n, e.g. 0/4")
	}
	n, err := strconv.Atoi(strings.TrimSpace(ns))
	if err != nil || n < 1 || n > MaxShards {
		return batch.Shard{}, bad(fmt.Sprintf("the count %q is not a number in 1..%d", ns, MaxShards))
	}
	is = strings.TrimSpace(is)
	if is == "index" {
		var from string
		for _, env := range []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"} {
			if v, ok := lookup(env); ok {
				is, from = v, env
				break
			}
		}
		if from == "" {
			return batch.Shard{}, bad("index comes from $JOB_COMPLETION_INDEX or $SLURM_ARRAY_TASK_ID, and neither is set")
		}
	}
	i, err := strconv.Atoi(is)
	if err != nil || i < 0 || i >= n {
		return batch.Shard{}, bad(fmt.Sprintf("the index %q is not a number in 0..%d", is, n-1))
	}
	return batch.Shard{Index: i, Count: n}, nil
}

// SpecVar is the value of the --shard flag, kept in p: any text but an
// empty one, which ran the whole batch unsharded (ParseSpec reads the
// text once the command runs).
func SpecVar(p *string) pflag.Value { return (*specValue)(p) }

type specValue string

func (s *specValue) String() string { return string(*s) }

func (s *specValue) Type() string { return "string" }

func (s *specValue) Set(v string) error {
	if strings.TrimSpace(v) == "" {
		return errors.New("want i/n, e.g. 0/4")
	}
	*s = specValue(v)
	return nil
}
