package lesson

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"sync"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// versionSources are the texts the course version hashes besides the
// catalog's digests: the course (its steps, runs and claims) and its
// question bank (today the questions of course.yaml; a bank kept in a
// file of its own joins this list).
var versionSources = [][]byte{courseYAML}

var (
	versionOnce sync.Once
	version     string
	versionErr  error
)

// Version names the course a result file was answered on: "course-"
// and 16 hex digits of a SHA-256 over the course and its question bank
// (versionSources), sim.DigestFormat, the rules a sheet is drawn by
// (drawFormat), and the catalog's digests — the
// trace digest (sim.Digest) of every catalog scenario under each of its
// semantics on seed 1 (testdata/digests.txt pins the same runs), and of
// every run of the course on its own seed. A change to the course, its
// questions, a scenario, a role or the engine that can move a run, and
// so a right answer, changes the version; grade refuses a result of
// another version rather than grade it against answers it was not asked.
func Version() (string, error) {
	versionOnce.Do(func() { version, versionErr = computeVersion() })
	return version, versionErr
}

func computeVersion() (string, error) {
	h := sha256.New()
	h.Write([]byte("once.lesson/version\x00"))
	word := func(x uint64) { h.Write(binary.BigEndian.AppendUint64(nil, x)) }
	for _, src := range versionSources {
		word(uint64(len(src)))
		h.Write(src)
	}
	word(sim.DigestFormat)
	word(drawFormat)
	for _, sc := range scenarios.All() {
		for _, sem := range sc.Semantics {
			out, err := runs.Outcome(sc, scenarios.Settings{Semantics: sem, Ops: sc.Ops, Faults: sc.Faults}, sim.NewRandom(1), nil)
			if err != nil {
				return "", err
			}
			h.Write([]byte(sc.Name + "\x00" + sem.Alias() + "\x00"))
			word(uint64(out.Digest))
		}
	}
	all, err := Load()
	if err != nil {
		return "", err
	}
	c := all.AllTracks()
	for i := range c.Steps {
		s := &c.Steps[i]
		for j := range s.Runs {
			r, err := Execute(&s.Runs[j])
			if err != nil {
				return "", err
			}
			for _, run := range r.Runs {
				word(uint64(run.Outcome.Digest))
			}
		}
	}
	return "course-" + hex.EncodeToString(h.Sum(nil)[:8]), nil
}
