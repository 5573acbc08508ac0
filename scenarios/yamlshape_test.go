package scenarios

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"
)

// randomValue draws a YAML value nested exactly depth levels deep (a
// scalar is one level), with text that looks like structure: brackets,
// quotes, comment signs, colons, block indicators and line breaks.
func randomValue(rng *rand.Rand, depth int) any {
	if depth <= 1 {
		texts := []string{"plain", "x[1]", "[not a list]", "{not: a map}", "it's", `say "hi"`, "a # b", "a: b",
			"| pipe", "> fold", "- dash", "line one\nline two [", "  lead", "tab\there", "&anchor", "!tag", "12", "true", ""}
		return texts[rng.IntN(len(texts))]
	}
	n := 1
	if rng.IntN(4) == 0 {
		n = 2 // mostly thin, so that deep documents stay small
	}
	if rng.IntN(2) == 0 {
		list := make([]any, n)
		for i := range list {
			list[i] = randomValue(rng, depth-1)
		}
		return list
	}
	m := yaml.MapSlice{}
	for i := range n {
		m = append(m, yaml.MapItem{Key: fmt.Sprintf("k%d", i), Value: randomValue(rng, depth-1)})
	}
	return m
}

// checkShape agrees with the YAML writer on depth: documents nested up to
// the limit, in block and in flow style, pass; deeper ones are refused.
// Text that only looks like structure never counts. (Documents the YAML
// parser itself refuses are skipped.)
func TestCheckShapeAgreesWithYAML(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		depth := 1 + rng.IntN(MaxNestingDepth+6)
		doc := yaml.MapSlice{{Key: "top", Value: randomValue(rng, depth)}}
		var opts []yaml.EncodeOption
		if rng.IntN(2) == 0 {
			opts = append(opts, yaml.Flow(true))
		}
		if rng.IntN(2) == 0 {
			opts = append(opts, yaml.IndentSequence(true))
		}
		data, err := yaml.MarshalWithOptions(doc, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := parser.ParseBytes(data, 0); err != nil {
			continue // the writer's flow style can hold a block scalar, which YAML forbids
		}
		p := checkShape(data)
		// The document holds depth+1 levels: depth collections (the top
		// mapping and those drawn) and a scalar innermost, which counts
		// when it stands on a line of its own ("- x") and not after its
		// key ("k: x").
		switch {
		case depth+1 <= MaxNestingDepth && p != nil:
			t.Fatalf("case %d: a document %d levels deep is refused: %d:%d: %s\n%s", i, depth+1, p.line, p.col, p.msg, data)
		case depth > MaxNestingDepth && p == nil:
			t.Fatalf("case %d: a document of %d nested collections passes\n%s", i, depth, data)
		}
	}
}
