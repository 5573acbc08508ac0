package shard

import (
	"io"

	"github.com/oncesim/once/batch"
	"github.com/oncesim/once/sim"
)

// RunAndWrite runs the seeds of shard s of a batch's rows (cfgs, named by
// labels) and writes the shard file, headed by h, to w; opt is the
// batch's (a swarm's shard runs swarm seeds; h.Args records --swarm).
func RunAndWrite(w io.Writer, h Header, s batch.Shard, cfgs []*sim.Config, labels []string, seeds, workers int, progress batch.Progress, opt batch.Options) error {
	r := s.Seeds(seeds)
	ts := batch.RunSeedsWith(cfgs, r, workers, progress, opt)
	doc := &Doc{Header: h, Seeds: seeds, From: r.Lo, To: r.Hi, Rows: make([]Row, len(cfgs))}
	for i := range ts {
		doc.Rows[i] = NewRow(labels[i], &ts[i])
	}
	data, err := Encode(doc)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}
