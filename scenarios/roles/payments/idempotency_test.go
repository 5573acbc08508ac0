package payments

import (
	"testing"

	"github.com/oncesim/once/scenarios/roles"
)

func TestKeyProtocolAnswers(t *testing.T) {
	const inFlight, completed, unknown = 1, 2, 3
	stored := keyRow{State: completed, Status: roles.StatusCreated, Response: 7001, Body: 101}
	request := httpRequest{Key: 42, Body: 101}
	other := request
	other.Body = 999
	noKey := request
	noKey.Key = 0
	row := func(r keyRow) func() (keyRow, bool) {
		return func() (keyRow, bool) { return r, true }
	}
	none := func() (keyRow, bool) { return keyRow{}, false }
	cases := []struct {
		name     string
		protocol keyProtocol
		m        httpRequest
		lookup   func() (keyRow, bool)
		want     httpResponse
		answered bool
	}{
		{"no key: 400", keyProtocol{completed: completed}, noKey, none, httpResponse{Status: roles.StatusBadRequest}, true},
		{"new key: processed", keyProtocol{completed: completed}, request, none, httpResponse{}, false},
		{"another payload: 422", keyProtocol{completed: completed}, other, row(stored), httpResponse{Status: roles.StatusUnprocessable}, true},
		{"another payload, no fingerprint: the stored response", keyProtocol{completed: completed, noFingerprint: true}, other, row(stored), httpResponse{Status: roles.StatusCreated, Result: 7001}, true},
		{"in flight: 409", keyProtocol{completed: completed}, request, row(keyRow{State: inFlight, Op: 1, Body: 101}), httpResponse{Status: roles.StatusConflict}, true},
		{"outcome unknown: 409", keyProtocol{completed: completed}, request, row(keyRow{State: unknown, Op: 1, Body: 101}), httpResponse{Status: roles.StatusConflict}, true},
		{"another payload in flight: 422 before 409", keyProtocol{completed: completed}, other, row(keyRow{State: inFlight, Op: 1, Body: 101}), httpResponse{Status: roles.StatusUnprocessable}, true},
		{"completed: the stored response, replayed", keyProtocol{completed: completed}, request, row(stored), httpResponse{Status: roles.StatusCreated, Result: 7001}, true},
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
	lookup := func() (keyRow, bool) { read = true; return keyRow{}, false }
	if _, answered := (keyProtocol{completed: 2}).answer(httpRequest{Body: 101}, lookup); !answered || read {
		t.Fatalf("answered=%v read=%v, want a 400 without reading the table", answered, read)
	}
}
