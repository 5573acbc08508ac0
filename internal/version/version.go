// Package version says which build of once is running: the module
// version and the VCS revision the Go toolchain stamped into the binary.
package version

import (
	"runtime/debug"
	"strings"
)

// String is "once VERSION (REVISION[, modified], GOVERSION)" from the
// binary's build information: VERSION is the module version (v1.2.3 when
// installed with go install …@v1.2.3, "(devel)" for a local build),
// REVISION the first 12 hex digits of the commit it was built from.
func String() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "once (unknown version: no build information)"
	}
	return format(info)
}

func format(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var details []string
	var rev string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev != "" {
		rev = "revision " + rev[:min(len(rev), 12)]
		if modified {
			rev += "+modified"
		}
		details = append(details, rev)
	}
	if info.GoVersion != "" {
		details = append(details, info.GoVersion)
	}
	if len(details) == 0 {
		return "once " + v
	}
	return "once " + v + " (" + strings.Join(details, ", ") + ")"
}
