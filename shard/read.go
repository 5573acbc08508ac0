package shard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"unicode/utf8"

	"github.com/oncesim/once/batch"
	"github.com/oncesim/once/internal/fileio"
)

// File is one shard file as read: its path and one of its documents.
type File struct {
	Path    string
	Doc     *Doc        // a matrix or sweep shard
	Explore *ExploreDoc // an explore shard
}

// Header is the file's common header.
func (f *File) Header() *Header {
	if f.Explore != nil {
		return &f.Explore.Header
	}
	return &f.Doc.Header
}

// Files expands the arguments of merge: a file is itself, a directory is
// every *.json file in it, in name order.
func Files(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil || !st.IsDir() {
			out = append(out, a) // reading it names the problem
			continue
		}
		matches, err := filepath.Glob(filepath.Join(a, "*.json"))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a, err)
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("%s: a directory with no *.json shard files", a)
		}
		sort.Strings(matches)
		out = append(out, matches...)
	}
	return out, nil
}

// Read reads and checks one shard file: strict JSON, the schema, the
// checksum, and counts consistent with each other and with the shard's
// seeds. Every error is one line naming the file and the field.
func Read(path string) (*File, error) {
	data, err := fileio.Read(path, MaxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%s: larger than %d MiB, not a shard file", path, MaxFileBytes>>20)
	}
	var head struct {
		Schema  string `json:"schema"`
		Command string `json:"command"`
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff")) // a byte-order mark, as plans and scenario files allow
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("%s: not a shard file: %v", at(path, data, err), err)
	}
	if head.Schema != Schema {
		return nil, fmt.Errorf("%s: schema: %q, want %q (a file written by matrix, sweep or explore with --shard)", path, head.Schema, Schema)
	}
	f := &File{Path: path}
	var d document
	if head.Command == "explore" {
		f.Explore = &ExploreDoc{}
		d = f.Explore
	} else {
		f.Doc = &Doc{}
		d = f.Doc
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(d); err != nil {
		kind := "a shard file"
		if f.Explore != nil {
			kind = "an explore shard file"
		}
		return nil, fmt.Errorf("%s: not %s: %v", at(path, data, err), kind, jsonErr(err))
	}
	h := d.header()
	if h.Checksum == "" {
		return nil, fmt.Errorf("%s: checksum: missing", path)
	}
	if want := checksum(d); h.Checksum != want {
		return nil, fmt.Errorf("%s: checksum: %s does not match the content (the file was edited or damaged; run its shard again)", path, h.Checksum)
	}
	if h.Count < 1 || h.Count > MaxShards || h.Index < 0 || h.Index >= h.Count {
		return nil, fmt.Errorf("%s: index: shard %d/%d is not one of 0..%d", path, h.Index, h.Count, max(h.Count-1, 0))
	}
	if err := checkHeader(h); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if f.Explore != nil {
		err = checkExplore(f.Explore)
	} else {
		err = checkRows(f.Doc)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// at is path, with the line and column of a JSON error that has an
// offset (a syntax error, a value of the wrong type): "m0.json:3:7".
func at(path string, data []byte, err error) string {
	off := int64(-1)
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = max(syn.Offset-1, 0) // the byte that stopped the scanner (an empty file: 1:1)
	case errors.As(err, &typ):
		off = typ.Offset - 1
	}
	if off < 0 || off > int64(len(data)) {
		return path
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
	return fmt.Sprintf("%s:%d:%d", path, line, col)
}

// jsonErr words a value of the wrong type by its field, not Go's type
// names ("json: cannot unmarshal string into Go struct field Doc.seeds
// of type int").
func jsonErr(err error) error {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) && typ.Type != nil {
		want := "an object"
		switch k := typ.Type.Kind(); {
		case k >= reflect.Int && k <= reflect.Uint64:
			want = "a whole number"
		case k == reflect.Float32 || k == reflect.Float64:
			want = "a number"
		case k == reflect.String:
			want = "a string"
		case k == reflect.Bool:
			want = "true or false"
		case k == reflect.Slice || k == reflect.Array:
			want = "a list"
		}
		return fmt.Errorf("%s: %s where %s belongs", typ.Field, typ.Value, want)
	}
	return err
}

// checkRows checks that a matrix or sweep shard's counts can be the
// tallies of its seeds: none negative, none above the runs, the runs the
// shard's seeds, and a first seed among them exactly where its count is
// not zero.
func checkRows(d *Doc) error {
	if d.Seeds < 1 || d.Seeds > batch.MaxSeeds {
		return fmt.Errorf("seeds: %d is not in 1..%d", d.Seeds, batch.MaxSeeds)
	}
	want := batch.Shard{Index: d.Index, Count: d.Count}.Seeds(d.Seeds)
	if d.From != want.Lo || d.To != want.Hi {
		return fmt.Errorf("from, to: shard %d/%d covers seeds %d..%d, want %d..%d", d.Index, d.Count, d.From, d.To, want.Lo, want.Hi)
	}
	runs := want.Count()
	for i := range d.Rows {
		r := &d.Rows[i]
		field := func(name string) string { return fmt.Sprintf("rows[%d].%s", i, name) }
		for _, c := range []struct {
			name     string
			n, limit int
		}{
			{"finished", r.Finished, r.Runs},
			{"runs_with_lost", r.WithLost, r.Finished},
			{"runs_with_refused", r.WithRefused, r.Runs},
			{"runs_never_completing", r.WithNeverDone, r.WithLost},
			{"runs_with_duplicated", r.WithDup, r.Runs},
			{"runs_with_violation", r.InvViolated, r.Runs},
			{"runs_unsettled", r.Unsettled, r.Runs},
			{"ops", r.Ops, -1},
			{"effects", r.Effects, -1},
		} {
			if c.n < 0 {
				return fmt.Errorf("%s: %d is negative", field(c.name), c.n)
			}
			if c.limit >= 0 && c.n > c.limit {
				return fmt.Errorf("%s: %d is more than the row's %d", field(c.name), c.n, c.limit)
			}
		}
		if r.Runs != runs {
			return fmt.Errorf("%s: %d, but the shard has %d seeds", field("runs"), r.Runs, runs)
		}
		for _, s := range []struct {
			name  string
			seed  uint64
			count int
		}{
			{"first_lost", r.FirstLost, r.WithLost},
			{"first_duplicated", r.FirstDup, r.WithDup},
			{"first_violation", r.FirstViolation, r.InvViolated},
			{"first_unfinished", r.FirstUnfinished, r.Runs - r.Finished},
			{"first_unsettled", r.FirstUnsettled, r.Unsettled},
		} {
			switch {
			case s.count == 0 && s.seed != 0:
				return fmt.Errorf("%s: seed %d, but no run counted", field(s.name), s.seed)
			case s.count > 0 && (s.seed < d.From || s.seed > d.To):
				return fmt.Errorf("%s: seed %d is not among the shard's seeds %d..%d", field(s.name), s.seed, d.From, d.To)
			}
		}
	}
	return nil
}

// checkExplore checks an explore shard's fields against each other.
func checkExplore(x *ExploreDoc) error {
	for _, c := range []struct {
		name string
		n    int64
	}{
		{"states", int64(x.States)}, {"schedules", int64(x.Schedules)}, {"transitions", int64(x.Transitions)},
		{"revisits", int64(x.Revisits)}, {"max_depth", int64(x.MaxDepth)}, {"memory_bytes", x.MemoryBytes},
		{"collapsed", int64(x.Collapsed)},
	} {
		if c.n < 0 {
			return fmt.Errorf("%s: %d is negative", c.name, c.n)
		}
	}
	switch {
	case x.Holds && len(x.Choices) > 0:
		return fmt.Errorf("choices: holds, yet has a counterexample")
	case x.Complete && x.Cut != "":
		return fmt.Errorf("cut: complete, yet cut (%q)", x.Cut)
	case !x.Complete && x.Cut == "":
		return fmt.Errorf("cut: incomplete, yet no cause given")
	}
	for i, c := range x.Choices {
		if c < 0 {
			return fmt.Errorf("choices[%d]: %d is negative", i, c)
		}
	}
	for i, b := range x.Branched {
		if !b.Kind.IsFault() {
			return fmt.Errorf("branched[%d].kind: %d is not a fault's or a preemption's choice", i, b.Kind)
		}
	}
	return nil
}
