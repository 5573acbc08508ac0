package scenarios

import (
	"fmt"
	"strings"
)

// Shape sums the scenario up in one line, as `once validate` prints it:
// "http, semantics amo, alo, idem, 7 expectations".
func (sc *Scenario) Shape() string {
	sems := make([]string, len(sc.Semantics))
	for i, s := range sc.Semantics {
		sems[i] = s.Alias()
	}
	plural := "s"
	if len(sc.Expect) == 1 {
		plural = ""
	}
	return fmt.Sprintf("%s, semantics %s, %d expectation%s", sc.Topology, strings.Join(sems, ", "), len(sc.Expect), plural)
}
