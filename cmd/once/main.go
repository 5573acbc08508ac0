// Command once is a deterministic simulator of message-delivery semantics
// under injected faults. See README.md and docs/commands.md for the commands.
package main

import "os"

func main() {
	os.Exit(execute(os.Args[1:], os.Stdout, os.Stderr))
}
