package profile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAroundWritesBothProfiles(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.out"), filepath.Join(dir, "mem.out")
	want := errors.New("the command's own error")
	if err := Around(cpu, mem, func() error { return want }); err != want {
		t.Errorf("Around = %v, want the command's error", err)
	}
	for _, p := range []string{cpu, mem} {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", p, err)
		}
	}
	ran := false
	if err := Around(filepath.Join(dir, "no", "cpu"), "", func() error { ran = true; return nil }); err == nil || !strings.HasPrefix(err.Error(), "--cpuprofile: ") || ran {
		t.Errorf("a bad path: %v (ran %v)", err, ran)
	}
}
