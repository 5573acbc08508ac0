package scenarios

import (
	"sort"
	"strings"
)

// NodeParams names the parameters the options of node name refer to
// ($name in its `with`), sorted: what configures that node alone. The lab
// ignores them when it matches a row, since a program plays the node.
func (s *Scenario) NodeParams(name string) []string {
	if s.spec == nil {
		return nil
	}
	var out []string
	for _, n := range s.spec.Nodes {
		if n.Name.Text != name {
			continue
		}
		for _, v := range n.With {
			if p, ok := strings.CutPrefix(strings.TrimSpace(v.Text), "$"); ok && p != "" {
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}
