package explore

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/oncesim/once/shard"
	"github.com/oncesim/once/sim/search"
)

func TestDocTimesOnlyWhenAsked(t *testing.T) {
	sc, set, _, kinds := setup(t)
	res := &search.Result{Holds: true, Complete: true}
	res.States = 10
	s := Search{Scenario: sc, Settings: set, Property: "exactly-once", MaxFaults: 2, Kinds: kinds}
	doc := s.Doc(res, nil)
	if doc.ElapsedMs != nil || doc.StatesPerSecond != nil || doc.Params == nil || doc.Scenario != "double-billing" || doc.States != 10 {
		t.Errorf("untimed doc = %+v", doc)
	}
	took := 2 * time.Second
	if doc := s.Doc(res, &took); doc.ElapsedMs == nil || *doc.ElapsedMs != 2000 || *doc.StatesPerSecond != 5 {
		t.Errorf("timed doc: %v ms, %v states/s", doc.ElapsedMs, doc.StatesPerSecond)
	}
}

func TestWriteMergedNamesItsShards(t *testing.T) {
	sc, set, _, kinds := setup(t)
	doc := Search{Scenario: sc, Settings: set, Property: "exactly-once", Kinds: kinds}.Doc(&search.Result{Holds: true, Complete: true}, nil)
	var text, js bytes.Buffer
	if err := WriteMerged(&text, "text", doc, 1); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(text.String(), "merged from 1 shard: "+shard.CountsNote+"\n") {
		t.Errorf("text ends %q", text.String())
	}
	if err := WriteMerged(&js, "json", doc, 3); err != nil {
		t.Fatal(err)
	}
	var g map[string]any
	if err := json.Unmarshal(js.Bytes(), &g); err != nil || g["shards"] != 3.0 || g["counts"] != shard.CountsNote {
		t.Errorf("json = %s (%v)", js.String(), err)
	}
}

func TestWriteShardCarriesTheResult(t *testing.T) {
	var w bytes.Buffer
	res := &search.Result{Holds: false, Complete: true, Choices: []int{0, 2, 1}}
	if err := WriteShard(&w, shard.Header{Command: "explore", Args: []string{"double-billing"}, Index: 1, Count: 4}, shard.Search{Ops: 3, MaxFaults: 2}, res); err != nil {
		t.Fatal(err)
	}
	var g map[string]any
	if err := json.Unmarshal(w.Bytes(), &g); err != nil {
		t.Fatalf("%v: %s", err, w.String())
	}
	if search, _ := g["search"].(map[string]any); !strings.Contains(w.String(), `"choices"`) || g["holds"] != false || search["ops"] != 3.0 || search["max_faults"] != 2.0 {
		t.Errorf("shard file = %s", w.String())
	}
}
