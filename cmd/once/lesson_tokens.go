package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	course "github.com/oncesim/once/lesson"
)

// maxNamesLine is the longest line of a names file read.
const maxNamesLine = 4096

func newLessonTokensCmd() *cobra.Command {
	var key string
	cmd := &cobra.Command{
		Use:   "tokens",
		Short: "Issue a token per student: names on standard input, one a line; prints name, tab, token",
		Long: `tokens reads the class's names from standard input, one a line (blank
lines and lines starting with # skipped), and prints each name with its
token: an HMAC-SHA256 of the name under the class key, its first 75 bits
in letters and digits and a check character, in groups of four. Give each
student their token; they run

  once lesson --plain --student NAME --token TOKEN --result NAME.json

and their seeds derive from the token, so nobody can compute another
student's runs or answers, and "once lesson grade" refuses a file whose
name and token do not match under the key. Keep the key: grading needs it.
The key comes from --class-key or from the environment variable
ONCE_CLASS_KEY (which keeps it out of the shell's history); at least 16
bytes, for instance: head -c 24 /dev/urandom | base64.

A name is compared as written, without its leading and trailing spaces; a
name given twice, one with a control character, or longer than 200 bytes
is refused.`,
		Args: cobra.NoArgs,
		Example: `  export ONCE_CLASS_KEY="$(head -c 24 /dev/urandom | base64)"
  once lesson tokens < names.txt > tokens.tsv`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			k, err := course.ClassKey(key)
			if err != nil {
				return usageErr("%v", err)
			}
			if k == "" {
				return usageErr("tokens needs a class key: --class-key KEY or %s", course.ClassKeyEnv)
			}
			return writeTokens(k, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&key, "class-key", "", "the class key (default $ONCE_CLASS_KEY)")
	return cmd
}

// writeTokens reads names and prints "name<TAB>token" for each, after
// checking them all (nothing is printed when one is refused).
func writeTokens(key string, in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 256), maxNamesLine)
	var names []string
	seen := map[string]int{}
	for line := 1; sc.Scan(); line++ {
		n := course.StudentName(sc.Text())
		if n == "" || strings.HasPrefix(n, "#") {
			continue
		}
		if err := course.CheckName(n); err != nil {
			return usageErr("names line %d: %v", line, err)
		}
		if first, ok := seen[n]; ok {
			return usageErr("names line %d: %s: already on line %d (two students need two names)", line, course.Escape(n), first)
		}
		seen[n] = line
		names = append(names, n)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return usageErr("names: a line longer than %d bytes: one name a line", maxNamesLine)
	} else if err != nil {
		return usageErr("names: %v", err)
	}
	if len(names) == 0 {
		return usageErr("names: none on standard input (one a line)")
	}
	v, err := course.Version()
	if err != nil {
		return err
	}
	w := bufio.NewWriter(out)
	fmt.Fprintf(w, "# once lesson tokens · %s\n", v)
	for _, n := range names {
		fmt.Fprintf(w, "%s\t%s\n", n, course.Token(key, n))
	}
	return w.Flush()
}
