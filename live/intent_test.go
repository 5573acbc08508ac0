package live

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/oncesim/once/network"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// fakeProvider answers the intent service's provider calls from a script,
// as the call-deadline fault layer would: 0 is a call whose deadline
// passed (504), any other number the transaction charged; each answer
// carries the run's virtual time in HeaderNow. It also plays the
// reconciler, recording the keys handed to it.
type fakeProvider struct {
	mu      sync.Mutex
	script  []int64
	now     []int64
	refs    []string
	unknown []unknownReport
}

func (f *fakeProvider) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.URL.Path == PathUnknown {
		var u unknownReport
		readJSON(r.Body, &u)
		f.unknown = append(f.unknown, u)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	var cr chargeRequest
	readJSON(r.Body, &cr)
	f.refs = append(f.refs, cr.Key)
	txn, now := f.script[0], f.now[0]
	f.script, f.now = f.script[1:], f.now[1:]
	w.Header().Set(HeaderNow, strconv.FormatInt(now, 10))
	if txn == 0 {
		writeProblem(w, statusTimeout, "deadline")
		return
	}
	writeJSON(w, http.StatusCreated, chargeResponse{TxnID: txn})
}

func intentService(t *testing.T, newKey bool) (*Service, *fakeProvider) {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "intents.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	f := &fakeProvider{}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	s := &Service{cfg: ServiceConfig{Semantics: "idem", Intent: true, NewKey: newKey, Gateway: srv.URL, Reconciler: srv.URL},
		db: db, http: srv.Client(), ctl: srv.Client()}
	return s, f
}

func (f *fakeProvider) answer(txn, now int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.script, f.now = append(f.script, txn), append(f.now, now)
}

// history returns the statuses and virtual times of every write to key.
func history(t *testing.T, s *Service, key string) (states []string, at []int64) {
	t.Helper()
	rows, err := s.db.Query(context.Background(), "SELECT status, at_ms FROM intent_history WHERE idempotency_key = ? ORDER BY seq", key)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var st string
		var ms int64
		if err := rows.Scan(&st, &ms); err != nil {
			t.Fatal(err)
		}
		states, at = append(states, st), append(at, ms)
	}
	return states, at
}

func txnOf(t *testing.T, rep reply) int64 {
	t.Helper()
	var pr paymentResponse
	if err := json.Unmarshal(rep.body, &pr); err != nil {
		t.Fatalf("%d %s: %v", rep.code, rep.body, err)
	}
	return pr.TxnID
}

// on-timeout=reconcile, statement by statement: PROCESSING before the
// call, UNKNOWN when its deadline passes (handed to the reconciler, no
// answer to the request), 409 to a retry meanwhile, 422 to another body;
// "not found" charges again under the same key; the first answer stays
// the result, whatever comes late.
func TestIntentReconcile(t *testing.T) {
	s, f := intentService(t, false)
	ctx := context.Background()
	body := `{"amount":101}`
	f.answer(0, 340)
	rep, err := s.payIntent(ctx, "k1", 1, 1, body, 101, 40)
	if err != nil || rep.code != 0 {
		t.Fatalf("a call past its deadline: %d %s, %v; want no answer", rep.code, rep.body, err)
	}
	if len(f.unknown) != 1 || f.unknown[0].Key != "k1" || f.unknown[0].Op != 1 {
		t.Fatalf("handed to the reconciler: %+v", f.unknown)
	}
	if rep, _ := s.payIntent(ctx, "k1", 1, 2, body, 101, 1040); rep.code != http.StatusConflict {
		t.Errorf("a retry of an UNKNOWN intent: %d, want 409", rep.code)
	}
	if rep, _ := s.payIntent(ctx, "k1", 1, 3, `{"amount":7}`, 7, 1050); rep.code != http.StatusUnprocessableEntity {
		t.Errorf("the key with another body: %d, want 422", rep.code)
	}
	f.answer(8822, 630)
	if err := s.resolved(ctx, resolution{Key: "k1", Op: 1, Status: http.StatusNotFound}, -resolvedBase-1, 590); err != nil {
		t.Fatal(err)
	}
	if err := s.lateAnswer(ctx, chargeNotice{Ref: "k1", Op: 1, TxnID: 8821}, 700); err != nil {
		t.Fatal(err)
	}
	if err := s.resolved(ctx, resolution{Key: "k1", Op: 1, Status: http.StatusOK, TxnID: 8821}, -resolvedBase-2, 800); err != nil {
		t.Fatal(err)
	}
	rep, err = s.payIntent(ctx, "k1", 1, 4, body, 101, 2040)
	if err != nil || rep.code != http.StatusCreated || !rep.replayed || txnOf(t, rep) != 8822 {
		t.Fatalf("the completed intent: %d %s replayed=%v, %v; want 201 with 8822, replayed", rep.code, rep.body, rep.replayed, err)
	}
	if !slices.Equal(f.refs, []string{"k1", "k1"}) {
		t.Errorf("provider calls under %v, want the intent's key twice", f.refs)
	}
	states, at := history(t, s, "k1")
	if !slices.Equal(states, []string{"PROCESSING", "UNKNOWN", "PROCESSING", "COMPLETED"}) || !slices.Equal(at, []int64{40, 340, 590, 630}) {
		t.Errorf("history %v at %v", states, at)
	}
}

// on-timeout=retry-new-key: the deadline passes, the service charges
// again at once under a fresh reference, written down with its intent;
// the second answer is the reply, and the first one, late, changes
// nothing — but the card was charged twice.
func TestIntentRetryNewKey(t *testing.T) {
	s, f := intentService(t, true)
	ctx := context.Background()
	f.answer(0, 340)
	f.answer(8830, 370)
	rep, err := s.payIntent(ctx, "k2", 2, 1, `{"amount":102}`, 102, 40)
	if err != nil || rep.code != http.StatusCreated || txnOf(t, rep) != 8830 {
		t.Fatalf("%d %s, %v; want 201 with 8830", rep.code, rep.body, err)
	}
	if len(f.unknown) != 0 || len(f.refs) != 2 || f.refs[0] == f.refs[1] || f.refs[0] == "k2" {
		t.Fatalf("provider references %v, unknown %v: want two fresh ones and no reconciler", f.refs, f.unknown)
	}
	if err := s.lateAnswer(ctx, chargeNotice{Ref: f.refs[0], Op: 2, TxnID: 8829}, 500); err != nil {
		t.Fatal(err)
	}
	if err := s.lateAnswer(ctx, chargeNotice{Ref: "not-ours", Op: 2, TxnID: 1}, 500); err != nil {
		t.Fatal(err)
	}
	states, _ := history(t, s, "k2")
	if !slices.Equal(states, []string{"PROCESSING", "COMPLETED"}) {
		t.Errorf("history %v", states)
	}
}

// The UNKNOWN backlog is judged from intent_history by the scenario's
// own invariant and metrics: 13 intents UNKNOWN at once break
// unknown-backlog-bounded, at the virtual time the 13th was written.
func TestIntentHistoryFeedsTheBacklogInvariant(t *testing.T) {
	s, _ := intentService(t, false)
	ctx := context.Background()
	sc, err := scenarios.Lookup("ambiguous-external-outcome")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sim.Idempotent, Ops: 20, Faults: sc.Faults})
	if err != nil {
		t.Fatal(err)
	}
	p, err := findParts(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 13; i++ {
		key := "pay-op-" + strconv.Itoa(i)
		if _, err := s.db.Exec(ctx, "INSERT INTO payment_intents (idempotency_key, request_hash, request_body, op, status, at_ms) VALUES (?, '', '{}', ?, ?, ?)",
			key, i, IntentProcessing, 100*i); err != nil {
			t.Fatal(err)
		}
		if _, err := s.db.Exec(ctx, "UPDATE payment_intents SET status = ?, at_ms = ? WHERE idempotency_key = ?", IntentUnknown, 100*i+300, key); err != nil {
			t.Fatal(err)
		}
	}
	rec := &counter{checker: sim.NewChecker(cfg.Observe, cfg.Ops), invs: cfg.Invariants(), metrics: cfg.Metrics()}
	dec := NewDecider(cfg.Topology, cfg.Network.(*network.Network), sim.NewRandom(1), rec)
	if err := replayIntentHistory(ctx, s.db, dec, cfg.Topology, p.service); err != nil {
		t.Fatal(err)
	}
	o := outcome(cfg, rec, true, 0, 1) // no charges recorded: only the invariant is of interest
	violated := ""
	for _, inv := range o.Invariants {
		if inv.Name == "unknown-backlog-bounded" {
			violated = inv.Violation
		}
	}
	if want := "13 outcomes UNKNOWN at once at 1.6s"; len(violated) < len(want) || violated[:len(want)] != want {
		t.Fatalf("unknown-backlog-bounded: %q, want it violated: %q", violated, want)
	}
	metrics := map[string]float64{}
	for _, m := range o.Metrics {
		metrics[m.Name] = m.Value
	}
	if metrics["max-unknown-backlog"] != 13 || metrics["unknown-arrival-rate"] != 13*1000.0/1600 {
		t.Errorf("metrics %v: want a backlog of 13, 13 arrivals by 1.6s", metrics)
	}
}

// A variant's --KIND entries set faults of the run, the others are the
// scenario's parameters.
func TestVariantFaults(t *testing.T) {
	sc, err := scenarios.Lookup("ambiguous-external-outcome")
	if err != nil {
		t.Fatal(err)
	}
	v := Variant{"ambiguous-external-outcome", sim.Idempotent, map[string]string{"provider": "idempotent", "--slow": "0.1"}}
	set, err := v.settings(sc)
	if err != nil {
		t.Fatal(err)
	}
	if set.Faults.Probability[sim.FaultSlow] != 0.1 || set.Faults.Probability[sim.FaultLoss] != sc.Faults.Probability[sim.FaultLoss] ||
		len(set.Params) != 1 || set.Params["provider"] != "idempotent" {
		t.Errorf("%+v", set)
	}
	v.Params["--nonsense"] = "1"
	if _, err := v.settings(sc); err == nil {
		t.Error("an unknown fault is accepted")
	}
}
