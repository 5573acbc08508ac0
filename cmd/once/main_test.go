package main

import (
	"os"
	"testing"

	"github.com/oncesim/once/lab/labtest"
)

// TestMain clears the locale, so every test prints English unless it
// asks for a language (--lang, or a locale it sets itself): no test may
// depend on the language of the machine that runs it; and the lesson's
// class key (ONCE_CLASS_KEY), which tests give when they need it.
func TestMain(m *testing.M) {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG", "ONCE_CLASS_KEY"} {
		os.Unsetenv(name)
	}
	code := m.Run()
	labtest.Cleanup() // the Go starters the lab tests built
	os.Exit(code)
}
