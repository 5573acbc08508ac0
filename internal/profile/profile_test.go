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
	bad := filepath.Join(dir, "no", "cpu")
	if err := Around(bad, "", func() error { ran = true; return nil }); err == nil || !strings.HasPrefix(err.Error(), "--cpuprofile "+bad+": ") || ran {
		t.Errorf("a bad path: %v (ran %v)", err, ran)
	}
}

// TestAroundRefusesWhatIsNotARegularFile: a directory or a symbolic link
// at a profile's path is refused before the command runs, and left as it
// was (the profile used to be created through it).
func TestAroundRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("keep"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(target, link)
	for _, c := range []struct{ cpu, mem, want string }{
		{link, "", "--cpuprofile " + link + ": is a symbolic link"},
		{"", link, "--memprofile " + link + ": is a symbolic link"},
		{filepath.Join(dir, "cpu.out"), dir, "--memprofile " + dir + ": is a directory"},
	} {
		ran := false
		if err := Around(c.cpu, c.mem, func() error { ran = true; return nil }); err == nil || !strings.HasPrefix(err.Error(), c.want) || ran {
			t.Errorf("Around(%q, %q) = %v (ran %v), want %q", c.cpu, c.mem, err, ran, c.want)
		}
	}
	if data, _ := os.ReadFile(target); string(data) != "keep" {
		t.Errorf("the link's target was written: %q", data)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("left behind: %v", entries)
	}
}
