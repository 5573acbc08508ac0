package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// generateSrc runs the generator on one file holding src.
func generateSrc(t *testing.T, src string) (code, test string, err error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "views.go"), []byte("package fam\n\nimport \"github.com/oncesim/once/sim\"\n\ntype idemKey int64\n\nvar _ sim.OpID\n\n"+src), 0o644); err != nil {
		t.Fatal(err)
	}
	c, ts, err := generate(dir)
	return string(c), string(ts), err
}

// TestWritesEachShape: each directive gives the codec its views' callers
// use, with the conversions a field's type needs.
func TestWritesEachShape(t *testing.T) {
	code, test, err := generateSrc(t, `
//viewgen:message envelope decode=decodeHTTPRequest
type httpRequest struct {
	Key  idemKey `+"`slot:\"Key\"`"+`
	Body int64   `+"`slot:\"Payload\"`"+`
}

//viewgen:message kind=MsgFetch
type fetch struct {
	NoWait bool `+"`slot:\"Status\"`"+`
}

//viewgen:message kind=caller Op=theOp
type messenger struct {
	Round int32 `+"`slot:\"Attempt\"`"+`
}

//viewgen:record State=rowDone
type DoneRow struct {
	Op sim.OpID `+"`slot:\"Value\"`"+`
}

//viewgen:timer kind=TimerStep
type deadline struct {
	Run  int64 `+"`slot:\"Key\"`"+`
	Call int32 `+"`slot:\"Attempt\"`"+`
}
`)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"func (v httpRequest) encode(e roles.Envelope) sim.Message { return v.onto(e.Message()) }",
		"\tm.Key = int64(v.Key)\n\tm.Payload = v.Body\n",
		"func decodeHTTPRequest(m sim.Message) httpRequest {\n\treturn httpRequest{Key: idemKey(m.Key), Body: m.Payload}",
		"return sim.Message{Kind: MsgFetch, Status: roles.Flag(v.NoWait)}",
		"return fetch{NoWait: m.Status != 0}",
		"func (v messenger) encode(kind sim.MsgKind) sim.Message {\n\treturn sim.Message{Kind: kind, Op: theOp, Attempt: v.Round}",
		"func (v DoneRow) Encode() sim.Record {\n\treturn sim.Record{State: rowDone, Value: int64(v.Op)}",
		"func DecodeDoneRow(r sim.Record) DoneRow {\n\treturn DoneRow{Op: sim.OpID(r.Value)}",
		"func (v deadline) timer(op sim.OpID) sim.Timer {\n\treturn sim.Timer{Kind: TimerStep, Op: op, Attempt: v.Call, Key: v.Run}",
	} {
		if !strings.Contains(code, want) {
			t.Errorf("views_gen.go lacks\n%s\nin\n%s", want, code)
		}
	}
	for _, want := range []string{
		`t.Run("httpRequest", viewtest.Envelope(httpRequest.encode, httpRequest.onto, decodeHTTPRequest, "Key Payload"))`,
		`t.Run("messenger", viewtest.MessageOfKind(messenger.encode, decodeMessenger, "Attempt", sim.Message{Op: theOp}))`,
		`t.Run("DoneRow", viewtest.Row(DoneRow.Encode, DecodeDoneRow, "Value", sim.Record{State: rowDone}))`,
		`t.Run("deadline", viewtest.Timer(deadline.timer, decodeDeadline, "Attempt Key", sim.Timer{Kind: TimerStep}))`,
	} {
		if !strings.Contains(test, want) {
			t.Errorf("views_gen_test.go lacks\n%s\nin\n%s", want, test)
		}
	}
}

// TestRefusesWhatItCannotGenerate: a view the generator cannot make
// round-trip is an error naming the type and the field, never a codec.
func TestRefusesWhatItCannotGenerate(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"//viewgen:record\ntype r struct{ A int64 }", "field A has no slot tag"},
		{"//viewgen:record\ntype r struct{ A int64 `slot:\"Key\"` }", `"Key" is not a slot of sim.Record`},
		{"//viewgen:record\ntype r struct{ A int64 `slot:\"Status\"` }", "type int64 does not fit slot Status (int32)"},
		{"//viewgen:record\ntype r struct{ A uint32 `slot:\"State\"` }", "type uint32 does not fit slot State"},
		{"//viewgen:record\ntype r struct{ A idemKey `slot:\"State\"` }", "type idemKey does not fit slot State"},
		{"//viewgen:record\ntype r struct{ A string `slot:\"State\"` }", "type string is not an integer type or bool"},
		{"//viewgen:record State=1\ntype r struct{ A int32 `slot:\"State\"` }", "slot State already holds the constant 1"},
		{"//viewgen:message envelope\ntype m struct{ A int32 `slot:\"Attempt\"` }", "slot Attempt is the envelope's"},
		{"//viewgen:message kind=MsgX\ntype m struct{ A sim.MsgKind `slot:\"Kind\"` }", "slot Kind is the encoder's"},
		{"//viewgen:message\ntype m struct{ A int64 `slot:\"Key\"` }", "envelope or kind=, one of them"},
		{"//viewgen:timer\ntype m struct{ A int64 `slot:\"Key\"` }", "kind=TimerX"},
		{"//viewgen:row\ntype m struct{}", "want message, record or timer"},
		{"//viewgen:record fast\ntype m struct{}", `option "fast"`},
		{"//viewgen:record\ntype r struct{ A, B int64 `slot:\"Value\"` }", "slot Value already holds field A"},
		{"type m struct{}", "no type has a //viewgen: directive"},
	} {
		_, _, err := generateSrc(t, c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s\n: err = %v, want one saying %q", c.src, err, c.want)
		}
	}
}
