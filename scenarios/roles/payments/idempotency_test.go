package payments

import (
	"testing"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

func TestKeyProtocolAnswers(t *testing.T) {
	const inFlight, completed, unknown = 1, 2, 3
	stored := sim.Record{State: completed, Status: roles.StatusCreated, Value: 7001, Aux: 101}
	request := sim.Message{Op: 1, Attempt: 2, Key: 42, Payload: 101}
	other := request
	other.Payload = 999
	noKey := request
	noKey.Key = 0
	row := func(r sim.Record) func() (sim.Record, bool) {
		return func() (sim.Record, bool) { return r, true }
	}
	none := func() (sim.Record, bool) { return sim.Record{}, false }
	cases := []struct {
		name     string
		protocol keyProtocol
		m        sim.Message
		lookup   func() (sim.Record, bool)
		want     keyAnswer
		answered bool
	}{
		{"no key: 400", keyProtocol{completed: completed}, noKey, none, keyAnswer{Status: roles.StatusBadRequest}, true},
		{"new key: processed", keyProtocol{completed: completed}, request, none, keyAnswer{}, false},
		{"another payload: 422", keyProtocol{completed: completed}, other, row(stored), keyAnswer{Status: roles.StatusUnprocessable}, true},
		{"another payload, no fingerprint: the stored response", keyProtocol{completed: completed, noFingerprint: true}, other, row(stored), keyAnswer{Status: roles.StatusCreated, Value: 7001}, true},
		{"in flight: 409", keyProtocol{completed: completed}, request, row(sim.Record{State: inFlight, Aux: 101}), keyAnswer{Status: roles.StatusConflict}, true},
		{"outcome unknown: 409", keyProtocol{completed: completed}, request, row(sim.Record{State: unknown, Aux: 101}), keyAnswer{Status: roles.StatusConflict}, true},
		{"another payload in flight: 422 before 409", keyProtocol{completed: completed}, other, row(sim.Record{State: inFlight, Aux: 101}), keyAnswer{Status: roles.StatusUnprocessable}, true},
		{"completed: the stored response, replayed", keyProtocol{completed: completed}, request, row(stored), keyAnswer{Status: roles.StatusCreated, Value: 7001}, true},
	}
	for _, c := range cases {
		got, answered := c.protocol.answer(c.m, c.lookup)
		if got != c.want || answered != c.answered {
			t.Errorf("%s: got %+v answered=%v, want %+v answered=%v", c.name, got, answered, c.want, c.answered)
		}
	}
}

// A request without a key is answered before the key table is read: a
// read of key 0 would be a step in the trace that never happened.
func TestKeyProtocolReadsNoTableWithoutAKey(t *testing.T) {
	read := false
	lookup := func() (sim.Record, bool) { read = true; return sim.Record{}, false }
	if _, answered := (keyProtocol{completed: 2}).answer(sim.Message{Op: 1, Payload: 101}, lookup); !answered || read {
		t.Fatalf("answered=%v read=%v, want a 400 without reading the table", answered, read)
	}
}
