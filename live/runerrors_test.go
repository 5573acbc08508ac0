package live

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/oncesim/once/internal/usererr"
	"github.com/oncesim/once/report/lang"
)

// TestRunErrorsHaveTheirMessages: each error that ends a live run reads in
// English exactly as live words it, and in Romanian and Russian in their
// words, durations in the language's form.
func TestRunErrorsHaveTheirMessages(t *testing.T) {
	defer lang.Set(lang.Current())
	errs := []error{
		errRestartTooMany(maxRestarts), errRestartHung("restart.sh 'x'", 30*time.Second),
		errRestartNoAnswer("http://127.0.0.1:8001", 1500*time.Millisecond), errServiceNoListen(10 * time.Second),
		errServiceDiedTooOften(maxRestarts), errTargetStopped("http://127.0.0.1:8001"),
		errTargetRedirect("POST", "/payments", "302 Found", "http://127.0.0.1:8001/login"), errLostDatabase("connection reset"),
		notLive("live_rest_method", nil, "rest-client method: live sends POST /payments only (GET, PUT, DELETE and PATCH are not run live)"),
	}
	for _, err := range errs {
		var e *usererr.Error
		if !errors.As(err, &e) {
			t.Fatalf("%q carries no message", err)
		}
		lang.Set(lang.English)
		if got := usererr.Localize(err, lang.English.Tf); got != err.Error() {
			t.Errorf("error.%s in English reads\n%q\nwhere live says\n%q", e.ID, got, err.Error())
		}
		for _, l := range []lang.Lang{lang.Romanian, lang.Russian} {
			lang.Set(l)
			got := usererr.Localize(err, l.Tf)
			if got == err.Error() || strings.Contains(got, "did not") || strings.Contains(got, "1.5s") || strings.Contains(got, "30s") {
				t.Errorf("error.%s in %s: %q", e.ID, l, got)
			}
		}
	}
}
