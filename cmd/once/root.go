package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/internal/usererr"
	"github.com/oncesim/once/internal/version"
	"github.com/oncesim/once/lab"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/report/lang/usage"
	"github.com/oncesim/once/sim"
)

// Exit codes: one table for every command (README, "Exit codes"; each
// command's --help ends with it).
const (
	exitOK         = 0 // it ran; with --check, everything held
	exitViolation  = 1 // --check found a violated promise or expectation, or a counterexample
	exitUsage      = 2 // bad input: flags, names, files
	exitIncomplete = 3 // unfinished: a budget or deadline left a verdict unknown (--check), or a signal interrupted the work
)

// exitError carries an exit code up to execute.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageErr marks err as the user's mistake: exit 2, one line on stderr.
func usageErr(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	if c := usererr.Caused(err.Error(), args); c != nil { // whatever the verb, the errors given stay reachable (lang.ErrorLine words them)
		err = c
	}
	return &exitError{code: exitUsage, err: err}
}

func asUsage(err error) error {
	if err == nil {
		return nil
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	return &exitError{code: exitUsage, err: err}
}

// errViolation is returned by --check runs that found a violation; the
// report has already been printed.
var errViolation = &exitError{code: exitViolation, err: errors.New("a promise was violated")}

// checkExit is the exit of a --check over a verdict: 1 violated, 3
// unknown (unfinished), nil held.
func checkExit(v sim.Status) error {
	switch v {
	case sim.Held:
		return nil
	case sim.Violated:
		return errViolation
	}
	return errIncomplete
}

// errIncomplete is returned when the work ended before a verdict (a budget
// under --check, or an interrupt); the report, INCOMPLETE or unknown, has
// already been printed.
var errIncomplete = &exitError{code: exitIncomplete, err: errors.New("unfinished")}

func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "once",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(flagError)
	root.Version = version.String()
	root.SetVersionTemplate("{{.Version}}\n")
	registerLang(root)
	cobra.AddTemplateFuncs(usage.Funcs(func() string { return root.PersistentFlags().Lookup("lang").Value.String() }))
	root.SetUsageTemplate(usage.Template) // cobra's usage text in the user's language
	root.AddCommand(newListCmd(), newRunCmd(), newReplayCmd(), newExploreCmd())
	root.AddCommand(newTUICmd(), newLessonCmd(), newClassCmd(), newLabCmd(), newRolesCmd(), newSchemaCmd())
	root.AddCommand(newMatrixCmd(), newExplainCmd(), newValidateCmd(), newSweepCmd(), newMergeCmd())
	root.AddCommand(newLiveCmd(), newLiveServeCmd(), newBrokerWorkerCmd())
	registerCompletion(root)
	usage.Describe(root, func(c *cobra.Command) (*string, *string) { return &c.Short, &c.Long }, func() string { return root.PersistentFlags().Lookup("lang").Value.String() }, map[string]any{"Roles": lab.PlayableRoles()})
	root.InitDefaultHelpFlag() // known before cobra finds the command: else "once --help --lang ru" took --lang for --help's value and "ru" for a command
	return root
}

// execute runs the command line and returns the process exit code. Errors
// are printed as one line on stderr; nothing panics out of here.
func execute(args []string, stdout, stderr io.Writer) int {
	root := newRootCmd(stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	code := exitUsage // cobra's own errors (unknown command, bad args) are usage errors
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
	}
	if code != exitViolation && !errors.Is(err, errIncomplete) { // those two follow a report that says it all
		fmt.Fprintf(stderr, "once: %s\n", lang.ErrorLine(err))
	}
	return code
}
