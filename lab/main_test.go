package lab_test

import (
	"os"
	"testing"

	"github.com/oncesim/once/lab/labtest"
)

// TestMain plays a lab node when the test binary is started as one
// (testNode), and removes the Go starters built for the tests at the end.
func TestMain(m *testing.M) {
	if len(os.Args) >= 2 && os.Args[1] == parentArg {
		runParent()
		os.Exit(0)
	}
	if len(os.Args) >= 3 && os.Args[1] == nodeArg {
		arg := ""
		if len(os.Args) > 3 {
			arg = os.Args[3]
		}
		runTestNode(os.Args[2], arg)
		os.Exit(0)
	}
	code := m.Run()
	labtest.Cleanup()
	os.Exit(code)
}
