package usage

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/report/lang"
)

func texts(c *cobra.Command) (*string, *string) { return &c.Short, &c.Long }

// tree is a small command tree as cmd builds it: texts left to the
// messages, but a hidden command's own.
func tree() (root, live, grade, hidden *cobra.Command) {
	root = &cobra.Command{Use: "once"}
	live = &cobra.Command{Use: "live", Run: func(*cobra.Command, []string) {}}
	lesson := &cobra.Command{Use: "lesson", Run: func(*cobra.Command, []string) {}}
	grade = &cobra.Command{Use: "grade", Run: func(*cobra.Command, []string) {}}
	hidden = &cobra.Command{Use: "serve", Short: "internal", Hidden: true}
	lesson.AddCommand(grade)
	root.AddCommand(live, lesson, hidden)
	return root, live, grade, hidden
}

// Describe sets the texts in the language --lang names when help is
// printed, each time afresh: the exit codes end root's commands' Long
// once, whatever the number of helps; a command without messages keeps
// its own text; a subcommand gets no exit codes.
func TestDescribeInTheLanguageOfTheHelp(t *testing.T) {
	root, live, grade, hidden := tree()
	flag := "en"
	Describe(root, texts, func() string { return flag }, map[string]any{"Roles": "service"})
	if live.Short != lang.English.T("help.live.short") || !strings.HasPrefix(live.Long, "live runs the Idempotency-Key pattern") {
		t.Fatalf("English live: %q / %q", live.Short, live.Long)
	}
	for _, l := range []string{"ro", "ru", "ro", "en"} {
		flag = l
		root.SetOut(&bytes.Buffer{})
		root.HelpFunc()(live, nil)
		root.HelpFunc()(live, nil)
		want := lang.Lang(l).T("help.live.long") + "\n\n" + lang.Lang(l).T("help.exit_codes")
		if live.Long != want {
			t.Errorf("%s: live's Long is\n%s\nwant\n%s", l, live.Long, want)
		}
		if grade.Long != lang.Lang(l).T("help.lesson.grade.long") {
			t.Errorf("%s: grade's Long is %q", l, grade.Long)
		}
		if hidden.Short != "internal" || hidden.Long != "internal\n\n"+lang.Lang(l).T("help.exit_codes") {
			t.Errorf("%s: the hidden command's texts are %q / %q", l, hidden.Short, hidden.Long)
		}
		if root.Short != lang.Lang(l).T("help.once.short") {
			t.Errorf("%s: root's Short is %q", l, root.Short)
		}
	}
	if lang.Romanian.T("help.live.long") == lang.English.T("help.live.long") {
		t.Error("help.live.long is not translated into Romanian")
	}
}

// The placeholders are filled: the lab's roles from cmd, the fault
// settings from sim.
func TestDescribeFillsThePlaceholders(t *testing.T) {
	root := &cobra.Command{Use: "once"}
	labCmd := &cobra.Command{Use: "lab", Run: func(*cobra.Command, []string) {}}
	sweep := &cobra.Command{Use: "sweep", Run: func(*cobra.Command, []string) {}}
	root.AddCommand(labCmd, sweep)
	Describe(root, texts, func() string { return "ru" }, map[string]any{"Roles": "payment-service, consumer"})
	if !strings.Contains(labCmd.Long, "payment-service, consumer.") || strings.Contains(labCmd.Long, "{{") {
		t.Errorf("lab's Long lacks its roles:\n%s", labCmd.Long)
	}
	if !strings.Contains(sweep.Long, "loss, ack-loss") || strings.Contains(sweep.Long, "{{") {
		t.Errorf("sweep's Long lacks the fault settings:\n%s", sweep.Long)
	}
}
