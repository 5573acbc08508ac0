package live

import (
	"strings"
)

// LiveCommand is the live command that repeats a run: cmd, a once run or
// once replay command line (runs.Command, or "once replay PLAN"), made
// once live's, with the target's flags of o — --target, --provider-addr
// and --restart-cmd (shell-quoted) — and --db, its password masked, so
// the line runs against your service again, not once's own.
func LiveCommand(cmd string, o Options) string {
	var b strings.Builder
	switch {
	case strings.HasPrefix(cmd, "once run "):
		b.WriteString("once live " + strings.TrimPrefix(cmd, "once run "))
	case strings.HasPrefix(cmd, "once replay "):
		b.WriteString("once live --replay " + strings.TrimPrefix(cmd, "once replay "))
	default:
		b.WriteString(cmd)
	}
	if o.Target != "" {
		b.WriteString(" --target " + ShellQuote(MaskURL(o.Target)))
		if o.ProviderAddr != "" && o.ProviderAddr != DefaultProviderAddr {
			b.WriteString(" --provider-addr " + o.ProviderAddr)
		}
		if o.RestartCmd != "" {
			b.WriteString(" --restart-cmd " + ShellQuote(o.RestartCmd))
		}
	}
	if o.DSN != "" {
		b.WriteString(" --db " + ShellQuote(MaskURL(o.DSN)))
	}
	return b.String()
}
