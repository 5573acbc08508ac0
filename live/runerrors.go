package live

import (
	"fmt"
	"strconv"
	"time"

	"github.com/oncesim/once/report/lang"
)

// The errors that end a live run for a reason outside once's input — a
// restart command that hangs, a service that stops listening, a database
// that goes away — each with its English text and the message error.<id>
// that words it in the user's language (locales/live.*.toml).

func errRestartTooMany(n int) error {
	return refuse("live_restart_too_many", map[string]any{"N": n},
		"live: your service crashed "+strconv.Itoa(n)+" times; --restart-cmd not run again")
}

func errRestartHung(cmd string, timeout time.Duration) error {
	return refuse("live_restart_hung", map[string]any{"Cmd": strconv.Quote(cmd), "Timeout": shownDuration(timeout)},
		fmt.Sprintf("live: --restart-cmd %q did not return within %s (it must kill your service, start it again and return)", cmd, timeout))
}

func errRestartNoAnswer(url string, timeout time.Duration) error {
	return refuse("live_restart_no_answer", map[string]any{"URL": url, "Timeout": shownDuration(timeout)},
		"live: --restart-cmd returned but "+url+" did not answer within "+timeout.String())
}

func errServiceNoListen(timeout time.Duration) error {
	return refuse("live_service_no_listen", map[string]any{"Timeout": shownDuration(timeout)},
		"live: the service did not listen within "+timeout.String())
}

func errServiceDiedTooOften(n int) error {
	return refuse("live_service_died", map[string]any{"N": n},
		"live: the service died "+strconv.Itoa(n)+" times; not restarted again")
}

func errTargetStopped(target string) error {
	return refuse("live_target_stopped", map[string]any{"Target": target},
		"live: --target "+target+": connection refused: your service stopped listening during the run")
}

func errTargetRedirect(method, path, status, location string) error {
	return refuse("live_target_redirect", map[string]any{"Method": method, "Path": path, "Status": status, "Location": strconv.Quote(location)},
		fmt.Sprintf("live: your service answered %s %s with %s to %q: once follows no redirect (docs/live.md); give --target the URL that answers", method, path, status, location))
}

func errLostDatabase(cause string) error {
	return refuse("live_lost_database", map[string]any{"Cause": cause},
		"live: lost the database (no answer at the run's end): "+cause)
}

// shownDuration is a duration in a message's data: printed in the current
// language's form when the message is worded (30 s, 1,5 s).
type shownDuration time.Duration

func (d shownDuration) String() string { return lang.Duration(time.Duration(d).String()) }
