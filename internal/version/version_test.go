package version

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestFormat(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.4.0"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}}
	if got, want := format(info), "once v1.4.0 (revision 0123456789ab+modified, go1.26.8)"; got != want {
		t.Errorf("format = %q, want %q", got, want)
	}
	if got := format(&debug.BuildInfo{}); got != "once (devel)" {
		t.Errorf("no information: %q", got)
	}
	if s := String(); !strings.HasPrefix(s, "once ") {
		t.Errorf("String() = %q", s)
	}
}
