package fileschema

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/oncesim/once/internal/golden"
	_ "github.com/oncesim/once/scenarios" // the catalog's families register their roles
)

var rewrite = flag.Bool("rewrite", false, "rewrite docs/scenario-files.md from the declarations")

func compiled(t *testing.T) *jsonschema.Schema {
	t.Helper()
	data, err := JSON()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the schema is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(ID, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(ID)
	if err != nil {
		t.Fatalf("the schema does not compile as draft 2020-12: %v", err)
	}
	return s
}

// instance reads a YAML scenario file as the JSON value an editor's YAML
// language server validates.
func instance(t *testing.T, text []byte) any {
	t.Helper()
	j, err := yaml.YAMLToJSON(text)
	if err != nil {
		t.Fatalf("YAML: %v", err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		t.Fatalf("JSON: %v", err)
	}
	return v
}

// TestSchemaValidatesEveryScenarioFile: every catalog file and every
// hand-written valid file under testdata validates against the schema.
func TestSchemaValidatesEveryScenarioFile(t *testing.T) {
	s := compiled(t)
	files, _ := filepath.Glob("../catalog/*.yaml")
	valid, _ := filepath.Glob("../../testdata/scenarios/valid/*.yaml")
	files = append(files, valid...)
	if len(files) < 30 {
		t.Fatalf("found %d scenario files; the catalog moved?", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(instance(t, data)); err != nil {
			t.Errorf("%s does not validate:\n%v", f, err)
		}
	}
}

// TestSchemaRejectsWhatTheLoaderRejects: mistakes of shape that the
// loader refuses are refused by the schema too, so an editor marks them
// as they are typed.
func TestSchemaRejectsWhatTheLoaderRejects(t *testing.T) {
	s := compiled(t)
	base, err := os.ReadFile("../catalog/double-billing.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, from, to string }{
		{"unknown top-level field", "ops: 5", "ops: 5\nretries: 3"},
		{"quoted number", "ops: 5", `ops: "5"`},
		{"unknown topology", "topology: http", "topology: rpc"},
		{"unknown role", "role: card-gateway", "role: card-gatway"},
		{"unknown role option", "with: {provider: $provider}", "with: {provider: $provider, retries: 2}"},
		{"role option outside its values", "with: {provider: $provider}", "with: {provider: stripe}"},
		{"unknown fault", "faults: {loss: 0.1, ack-loss: 0.3}", "faults: {loss: 0.1, ackloss: 0.3}"},
		{"probability above 1", "faults: {loss: 0.1, ack-loss: 0.3}", "faults: {loss: 1.5, ack-loss: 0.3}"},
		{"unknown claim", `show: [">=1", dup]`, `show: [">=1", twice]`},
		{"bad link class", "class: reliable", "class: lossy"},
		{"bad duration", "delay: 40ms", "delay: 40 millis"},
		{"unknown semantics in why", "    amo: |", "    exactly-once: |"},
	} {
		text := strings.Replace(string(base), c.from, c.to, 1)
		if text == string(base) {
			t.Fatalf("%s: %q is not in double-billing.yaml", c.name, c.from)
		}
		if err := s.Validate(instance(t, []byte(text))); err == nil {
			t.Errorf("%s: the schema accepts it", c.name)
		}
	}
}

// TestSchemaIsDeterministic: two calls give the same bytes (no map order
// leaks into `once schema`).
func TestSchemaIsDeterministic(t *testing.T) {
	a, _ := JSON()
	b, _ := JSON()
	if !bytes.Equal(a, b) {
		t.Fatal("two schemas differ")
	}
}

// TestReference: docs/scenario-files.md is what the declarations say
// (refresh with -rewrite), and it names every field and role.
func TestReference(t *testing.T) {
	got, err := Reference(os.DirFS("../catalog"))
	if err != nil {
		t.Fatal(err)
	}
	const file = "../../docs/scenario-files.md"
	if golden.Rewrite(*rewrite, "reference", "") {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (create it with -rewrite)", err)
	}
	if string(want) != got {
		t.Fatalf("%s is out of date: make update ONLY=reference%s", file, golden.Left(*rewrite, "reference", ""))
	}
	for _, must := range []string{"`nodes[].with`", "`expect[].unprotected`", "`lesson.why`", "### `payment-service`", "### http: ", "### kafka: ", "`pause-ms`"} {
		if !strings.Contains(got, must) {
			t.Errorf("the reference lacks %s", must)
		}
	}
}
