package scenarios

import (
	"os"
	"strings"
	"testing"
)

// TestVacuityFieldsRejectBadValues: expect.unprotected and expect.inherent
// name the field, the value and its line:column when they are wrong.
func TestVacuityFieldsRejectBadValues(t *testing.T) {
	base, err := os.ReadFile("catalog/expired-dedup-ttl.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const row = `unprotected: {ttl: 30s}, explore: 1`
	const holds = `inherent: "the sender retries until it is answered: no operation is given up"}`
	for _, c := range []struct{ from, to, want string }{
		{row, `unprotected: {ttl: forever}, explore: 1`, `:52:73: expect.unprotected: parameter ttl: "forever" is not a duration`},
		{row, `unprotected: {colour: red}, explore: 1`, `:52:76: expect.unprotected: "colour" is neither semantics, a parameter (ttl, replay, retry, interval) nor a fault setting`},
		{row, `unprotected: {semantics: txn}, explore: 1`, `:52:79: expect.unprotected.semantics: the scenario does not list semantics txn`},
		{row, `unprotected: {crash: "0.5"}, explore: 1`, `:52:75: expect.unprotected.crash: "0.5" is quoted text, not a number`},
		{row, `unprotected: {crash: 2}, explore: 1`, `:52:75: expect.unprotected.crash: "2" is not a probability`},
		{row, `unprotected: {ttl: 90s}, explore: 1`, `:52:73: expect.unprotected: the switch changes nothing`},
		{row, `unprotected: {}, explore: 1`, `:52:17: expect.unprotected: name the setting`},
		{row, `unprotected: {ttl: 30s}, inherent: "ttl", explore: 1`, `expect.inherent: the row also names an unprotected switch: keep one`},
		{holds, `inherent: ""}`, `:49:52: expect.inherent: say in one line why`},
		{holds, `inherent: true}`, `:49:52: expect.inherent: say in one line why`},
		{`show: [dup], note: "just under`, `show: [dup], unprotected: {ttl: 1s}, note: "ttl 30s`, `expect.unprotected: the row shows no every-run claim`},
		{`show: [dup], note: "just under`, `show: [dup], inherent: "x", note: "ttl 30s`, `expect.inherent: the row shows no every-run claim`},
	} {
		text := string(base)
		if !strings.Contains(text, c.from) {
			t.Fatalf("the catalog file no longer has %q", c.from)
		}
		_, err := Load("bad.yaml", []byte(strings.Replace(text, c.from, c.to, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "bad.yaml:") {
			t.Errorf("%s → %s: error %v, want one naming %q with its line", c.from, c.to, err, c.want)
		}
	}
}

// TestUnprotectedSettingsLayOverTheRow: the switch changes only what it
// names, on top of the row's own settings.
func TestUnprotectedSettingsLayOverTheRow(t *testing.T) {
	sc, err := Lookup("transaction-abort")
	if err != nil {
		t.Fatal(err)
	}
	for i := range sc.Expect {
		e := &sc.Expect[i]
		if e.Unprotected == nil || len(e.Params) > 0 {
			continue
		}
		set, ok, err := e.UnprotectedSettings(sc)
		if err != nil || !ok {
			t.Fatalf("%s: ok=%v err=%v", e.Label(), ok, err)
		}
		own := e.Settings(sc)
		if set.Faults != own.Faults || set.Semantics != own.Semantics || set.Ops != own.Ops {
			t.Errorf("%s: the switch %s changed more than it names", e.Label(), e.Unprotected)
		}
		for k, v := range e.Unprotected.Params {
			if set.Params[k] != v {
				t.Errorf("%s: %s=%q, want %q", e.Label(), k, set.Params[k], v)
			}
		}
	}
}
