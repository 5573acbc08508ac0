package live

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// The rest scenarios: key-scoped-to-user and the stored replay run; what
// live cannot send or store is refused in one line.
func TestSupportsRestScenarios(t *testing.T) {
	for _, c := range []struct {
		scenario string
		params   map[string]string
		refused  string // "" = supported
	}{
		{"key-scoped-to-user", nil, ""},
		{"key-scoped-to-user", map[string]string{"key-scope": "global", "keys": "unique", "users": "3"}, ""},
		{"nondeterministic-response", nil, ""},
		{"nondeterministic-response", map[string]string{"replay": "recompute"}, "replay=recompute"},
		{"http-methods", nil, "POST /payments only"},
		{"missing-key-400", nil, "keys=omit-odd"},
	} {
		err := supports(t, c.scenario, nil, c.params)
		switch {
		case c.refused == "" && err != nil:
			t.Errorf("%s %v: refused: %v", c.scenario, c.params, err)
		case c.refused != "" && (err == nil || !errors.Is(err, ErrNotLive) || !strings.Contains(err.Error(), c.refused)):
			t.Errorf("%s %v: %v, want a refusal naming %s", c.scenario, c.params, err, c.refused)
		case err != nil && strings.Contains(err.Error(), "\n"):
			t.Errorf("%s: a refusal is one line: %q", c.scenario, err)
		}
	}
}

// findParts maps the rest-client and rest-service: the service is its
// own gateway, the route's messages are the rest messages, and the
// client's users and keys are the scenario's; --target is refused.
func TestRestParts(t *testing.T) {
	sc, err := scenarios.Lookup("key-scoped-to-user")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sim.Idempotent, Ops: sc.Ops, Faults: sc.Faults, Params: map[string]string{"key-scope": "global"}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := findParts(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if p.rest == nil || p.gateway != p.service || cfg.Topology.MessageName(p.pay) != "rest" || cfg.Topology.MessageName(p.payResponse) != "rest-response" {
		t.Fatalf("parts: rest %v gateway %d service %d pay %s", p.rest, p.gateway, p.service, cfg.Topology.MessageName(p.pay))
	}
	var sc2 ServiceConfig
	p.configureService(&sc2)
	if !sc2.Rest || !sc2.GlobalKeys || !sc2.Durable {
		t.Fatalf("service config %+v", sc2)
	}
	c := &Client{Semantics: sim.Idempotent}
	p.configureClient(c)
	if c.Users != 2 || !c.UserKeys {
		t.Fatalf("client users %d user keys %v", c.Users, c.UserKeys)
	}
	// The simulator's rest-client: op-1 and op-2 are users 1 and 2, both
	// with their first payment's key; op-3 is user 1's second.
	for op, want := range map[int32]struct {
		user int64
		key  string
		id   int64
	}{1: {1, "payment-1", 1}, 2: {2, "payment-1", 1}, 3: {1, "payment-2", 2}} {
		k, id := c.key(op, 1)
		if c.user(op) != want.user || k != want.key || id != want.id {
			t.Errorf("op-%d: user %d key %s (%d), want %+v", op, c.user(op), k, id, want)
		}
	}
	if err := SupportsTarget(cfg, nil, false); err == nil || !strings.Contains(err.Error(), "--target") {
		t.Fatalf("--target: %v", err)
	}
}

func TestUserOf(t *testing.T) {
	for v, want := range map[string]int64{"Bearer user-1": 1, "Bearer user-12": 12, "Bearer user-0": 0, "Bearer u-1": 0, "": 0, "Basic user-1": 0} {
		h := http.Header{}
		h.Set(HeaderAuthorization, v)
		if got, _ := userOf(h); got != want {
			t.Errorf("userOf(%q) = %d, want %d", v, got, want)
		}
	}
	h := http.Header{}
	h.Set(HeaderAuthorization, userBearer(7))
	if got, ok := userOf(h); !ok || got != 7 {
		t.Errorf("userBearer(7) reads back as %d", got)
	}
}

// The rest-service on a real (in-process) SQLite database: users 1 and 2
// pay with the same key. Scoped per user, two charges and each user's own
// receipt; stored by the key alone, user 2 is answered user 1's stored
// receipt (replayed) and never charged.
func TestRestServiceKeyScope(t *testing.T) {
	for _, global := range []bool{false, true} {
		db, err := Open(filepath.Join(t.TempDir(), "k.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := db.Migrate(context.Background()); err != nil {
			t.Fatal(err)
		}
		s := &Service{cfg: ServiceConfig{Semantics: "idem", Rest: true, GlobalKeys: global, Durable: true}, db: db}
		pay := func(user int64, op int32, key string) (int, paymentResponse, bool) {
			req := httptest.NewRequest(http.MethodPost, PathPayments, strings.NewReader(`{"amount":101}`))
			setIdentity(req.Header, op, 1)
			req.Header.Set(HeaderIdempotencyKey, key)
			if user > 0 {
				req.Header.Set(HeaderAuthorization, userBearer(user))
			}
			w := httptest.NewRecorder()
			s.ServeHTTP(w, req)
			var pr paymentResponse
			json.Unmarshal(w.Body.Bytes(), &pr)
			return w.Code, pr, w.Header().Get(HeaderReplayed) == "true"
		}
		code1, r1, _ := pay(1, 1, "payment-1")
		code2, r2, replayed := pay(2, 2, "payment-1")
		again, r1b, replayedOwn := pay(1, 1, "payment-1")
		if code1 != 201 || code2 != 201 || again != 201 || !replayedOwn || r1b.TxnID != r1.TxnID {
			t.Fatalf("global=%v: %d %d %d, own retry replayed %v (%d, first %d)", global, code1, code2, again, replayedOwn, r1b.TxnID, r1.TxnID)
		}
		var charges int
		db.QueryRow(context.Background(), "SELECT count(*) FROM charges").Scan(&charges)
		switch {
		case !global && (replayed || r2.TxnID == r1.TxnID || charges != 2):
			t.Errorf("scoped: user 2 got txn %d (user 1's %d), replayed %v, %d charges", r2.TxnID, r1.TxnID, replayed, charges)
		case global && (!replayed || r2.TxnID != r1.TxnID || charges != 1):
			t.Errorf("global: user 2 got txn %d (user 1's %d), replayed %v, %d charges; want user 1's receipt and 1 charge", r2.TxnID, r1.TxnID, replayed, charges)
		}
		if code, _, _ := pay(0, 3, "payment-2"); code != http.StatusUnauthorized {
			t.Errorf("no user: %d, want 401", code)
		}
		if code, _, _ := pay(1, 3, ""); code != http.StatusBadRequest {
			t.Errorf("no key: %d, want 400", code)
		}
	}
}

// own-receipt reads the charges before the receipts: an outcome recorded
// during the run, before the charges are read from the database at its
// end, is judged against them.
func TestReceiptsAfterCharges(t *testing.T) {
	sc, err := scenarios.Lookup("key-scoped-to-user")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sim.Idempotent, Ops: sc.Ops, Faults: sc.Faults})
	if err != nil {
		t.Fatal(err)
	}
	sink := cfg.Observe.Sinks[0]
	outcome := func(op sim.OpID, txn int64) *sim.Event {
		return &sim.Event{Kind: sim.EvOutcome, Msg: sim.Message{Op: op, Status: 201, Value: txn*receiptBase + 1}}
	}
	charge := func(op sim.OpID, txn int64) *sim.Event {
		return &sim.Event{Kind: sim.EvEffect, Label: uint16(sink), Msg: sim.Message{Op: op, Value: txn}}
	}
	for _, c := range []struct {
		name   string
		events []*sim.Event
		want   string // "" = held
	}{
		{"own receipts", []*sim.Event{outcome(1, 8821), outcome(2, 8822), charge(1, 8821), charge(2, 8822)}, ""},
		{"another user's receipt", []*sim.Event{outcome(1, 8821), outcome(2, 8821), charge(1, 8821)}, "charged for op-1"},
		{"never charged", []*sim.Event{outcome(1, 8823), charge(1, 8821)}, "never charged"},
	} {
		invs := receiptsAfterCharges(cfg.Invariants())
		for _, e := range c.events {
			for _, inv := range invs {
				inv.Record(e)
			}
		}
		got := sim.DetailOf(invs[0], true).English
		if invs[0].Name() != "own-receipt" || (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %s %q, want %q", c.name, invs[0].Name(), got, c.want)
		}
	}
}
