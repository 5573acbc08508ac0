package live

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/oncesim/once/internal/usererr"
	"github.com/oncesim/once/report/lang"
)

// live's refusals carry a message (locales/live.*.toml) whose English is
// the refusal's own text, so that the Romanian and Russian lines are
// translations of what English users read; a refusal of what live cannot
// run still is ErrNotLive.
func TestRefusalsHaveTheirMessages(t *testing.T) {
	var errs []error
	add := func(err error) {
		if err == nil {
			t.Fatal("no refusal")
		}
		errs = append(errs, err)
	}
	for _, c := range []struct {
		name, target string
		seeds        int
		args, flags  []string
	}{
		{"", "", 1, nil, []string{"rows"}},
		{"", "", 1, nil, nil},
		{"nosuch", "", 1, nil, nil},
		{"payments", "", 1, nil, nil},
		{"payments", "http://127.0.0.1:8000", 0, nil, nil},
		{"payments", "http://127.0.0.1:8000", 1, []string{"double-billing"}, nil},
		{"payments", "http://127.0.0.1:8000", 1, nil, []string{"save"}},
		{"payments", "http://127.0.0.1:8000", 1, nil, []string{"replay"}},
		{"payments", "http://127.0.0.1:8000", 1, nil, []string{"broker-url"}},
		{"payments", "http://127.0.0.1:8000", 1, nil, []string{"variant"}},
		{"payments", "http://127.0.0.1:8000", 1, nil, []string{"file"}},
		{"payments", "http://127.0.0.1:8000", 1, nil, []string{"loss"}},
	} {
		add(CheckSuite(c.name, c.target, c.seeds, c.args, c.flags))
	}
	for _, s := range []SuiteRun{
		{Name: "payments", Target: "http://127.0.0.1:8000", Seeds: 1, Rows: []string{"nosuch"}},
		{Name: "payments", Target: "http://127.0.0.1:8000", Seeds: 1, Format: "trace"},
		{Name: "payments", Target: "http://127.0.0.1:8000", Seeds: 1, Format: "xml"},
	} {
		add(s.Check())
	}
	ok := Flags{Provider: DefaultProviderAddr, TickMs: 1, Deadline: time.Minute}
	for _, f := range []func(Flags) Flags{
		func(f Flags) Flags { f.PrintEnv, f.Args = true, 1; return f },
		func(f Flags) Flags { f.AllowRemote = true; return f },
		func(f Flags) Flags { f.Restart = "true"; return f },
		func(f Flags) Flags { f.Target, f.RestartGiven = "http://127.0.0.1:8000", true; return f },
		func(f Flags) Flags { f.TickMs = 0; return f },
		func(f Flags) Flags { f.Deadline = 0; return f },
		func(f Flags) Flags { f.DB = "mysql://x"; return f },
		func(f Flags) Flags { f.Ready = time.Second; return f },
	} {
		_, err := f(ok).Check()
		add(err)
	}
	for _, target := range []string{"ftp://x", "http://127.0.0.1:99999", "http://192.0.2.1:80"} {
		add(CheckTarget(target, false))
	}
	for _, addr := range []string{"nope", "127.0.0.1:x", "a;b:1", "0.0.0.0:9", "192.0.2.1:9"} {
		add(CheckListenAddr(addr, false))
	}
	add(waitReady(context.Background(), "http://127.0.0.1:1", 0, time.Second, nil))
	for _, c := range []struct {
		scenario string
		faults   map[string]string
	}{
		{"double-billing", map[string]string{"preempt": "0.3"}},
		{"concurrent-same-key", map[string]string{"crash": "0.3"}},
		{"store-outage-fail-closed", map[string]string{"pause": "0.3"}},
		{"ambiguous-external-outcome", map[string]string{"crash": "0.2"}},
		{"ambiguous-external-outcome", map[string]string{"pause": "0.2"}},
		{"ambiguous-external-outcome", map[string]string{"preempt": "0.2"}},
	} {
		add(supports(t, c.scenario, c.faults, nil))
	}
	add(inScenario("double-billing", notLive("live_restart_no_crash", nil, "--restart-cmd: --crash is 0, so nothing would run it; give --crash P")))
	for _, err := range errs {
		var e *usererr.Error
		if !errors.As(err, &e) {
			t.Errorf("%q carries no message", err)
			continue
		}
		if got := usererr.Localize(err, lang.English.Tf); got != err.Error() {
			t.Errorf("error.%s in English reads\n%q\nwhere live says\n%q", e.ID, got, err.Error())
		}
		if got := usererr.Localize(err, lang.Russian.Tf); got == err.Error() {
			t.Errorf("error.%s: the Russian line is the English one: %q", e.ID, got)
		}
	}
	if err := errs[len(errs)-1]; !errors.Is(err, ErrNotLive) {
		t.Errorf("%q is not ErrNotLive", err)
	}
}
