//go:build integration

package live

import (
	"strconv"
	"strings"
	"testing"

	"github.com/oncesim/once/sim"
)

// key-scoped-to-user live, as the simulator runs it: two users whose keys
// are their payment counts. Scoped per user (the default) every payment
// is charged once and own-receipt holds; stored by the key alone
// (key-scope=global) user 2's payments get user 1's stored receipts, are
// never charged, and own-receipt is violated. Per-operation effects and
// the verdict are the simulator's on every seed, and --check exits 1
// where the simulator's verdict is violated.
func testKeyScopedToUser(t *testing.T, dsn string) {
	for _, seed := range []uint64{1, 2, 3} {
		for _, scope := range []string{"user", "global"} {
			simulated, real := runBoth(t, dsn, "key-scoped-to-user", sim.Idempotent, seed, map[string]string{"key-scope": scope})
			for i, op := range real.Ops {
				if op.Effects != simulated.Ops[i].Effects {
					t.Errorf("key-scope=%s seed %d op-%d: live %d charges, simulated %d", scope, seed, i+1, op.Effects, simulated.Ops[i].Effects)
				}
			}
			if real.Status != simulated.Status {
				t.Errorf("key-scope=%s seed %d: live %s (%s), simulated %s (%s)", scope, seed, real.Status, real.Why, simulated.Status, simulated.Why)
			}
			receipt := ""
			for _, inv := range real.Invariants {
				if inv.Name == "own-receipt" {
					receipt = inv.Violation
				}
			}
			switch {
			case scope == "user" && (real.Status != sim.Held || receipt != ""):
				t.Errorf("key-scope=user seed %d: %s, own-receipt %q; want held", seed, real.Why, receipt)
			case scope == "global" && (real.Status != sim.Violated || !strings.Contains(receipt, "another user's stored response")):
				t.Errorf("key-scope=global seed %d: %s, own-receipt %q; want another user's receipt", seed, real.Why, receipt)
			}
		}
	}
	for scope, want := range map[string]int{"user": 0, "global": 1} {
		args := []string{"live", "key-scoped-to-user", "--semantics", "idem", "--set", "key-scope=" + scope, "--seed", "1", "--check", "--tick", strconv.Itoa(int(liveTick.Milliseconds()))}
		if dsn != "" {
			args = append(args, "--db", dsn)
		}
		if out, errOut, code := once(t, args...); code != want {
			t.Errorf("once %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, want, out, errOut)
		}
	}
}

func TestIntegrationKeyScopedToUserSQLite(t *testing.T) { testKeyScopedToUser(t, "") }

func TestIntegrationKeyScopedToUserPostgres(t *testing.T) {
	testKeyScopedToUser(t, postgresDSN(t))
}
