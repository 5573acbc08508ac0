package live

import "github.com/oncesim/once/internal/usererr"

// refuse is a mistake in once live's input (a flag, a combination, a
// target that does not answer) with its English text and the message
// error.<id> that words it in the user's language (report/lang,
// locales/live.*.toml).
func refuse(id string, data map[string]any, english string) error {
	return usererr.New(id, data, english)
}

// notLive is refuse for what live cannot run: its text follows
// ErrNotLive's, and errors.Is finds ErrNotLive in it.
func notLive(id string, data map[string]any, english string) error {
	return usererr.New(id, data, ErrNotLive.Error()+": "+english).Wrapping(ErrNotLive)
}

// inScenario is err, a refusal of scenario name's run, prefixed with the
// scenario; errors.Is and errors.As see through it, and err is worded
// inside it.
func inScenario(name string, err error) error {
	return usererr.New("live_in_scenario", map[string]any{"Scenario": name, "Reason": err}, "scenario "+name+": "+err.Error()).Wrapping(err)
}
