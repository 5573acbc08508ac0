package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/oncesim/once/sim"
)

// WriteMermaid renders the trace as a Mermaid sequence diagram, the form
// the lesson draws by hand: one participant per node plus one per traced
// store, arrows for delivered messages, crosses for lost ones, notes for
// effects, crashes and restarts.
func WriteMermaid(w io.Writer, topo *sim.Topology, events []sim.Event) error {
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	id := func(n sim.NodeID) string { return strings.ReplaceAll(topo.NodeName(n), "-", "_") }
	store := func(n sim.NodeID, t uint8) string {
		return id(n) + "_" + strings.ReplaceAll(topo.TableName(n, sim.TableID(t)), "-", "_")
	}
	for i := range topo.Nodes {
		n := sim.NodeID(i)
		fmt.Fprintf(&b, "    participant %s\n", id(n))
		for t, spec := range topo.Nodes[i].Tables {
			if spec.Traced {
				kind := "durable"
				if !spec.Durable {
					kind = "memory"
				}
				fmt.Fprintf(&b, "    participant %s as %s %s (%s)\n", store(n, uint8(t)), topo.NodeName(n), spec.Name, kind)
			}
		}
	}
	for i := range events {
		e := &events[i]
		m := &e.Msg
		switch e.Kind {
		case sim.EvDeliver:
			fmt.Fprintf(&b, "    %s->>%s: %s\n", id(e.Peer), id(e.Node), msgLabel(topo, m))
		case sim.EvDrop:
			fmt.Fprintf(&b, "    %s-x%s: %s (%s)\n", id(e.Node), id(e.Peer), msgLabel(topo, m), e.Reason)
		case sim.EvDuplicate:
			fmt.Fprintf(&b, "    Note over %s,%s: network duplicates %s\n", id(e.Node), id(e.Peer), msgLabel(topo, m))
		case sim.EvSlow:
			fmt.Fprintf(&b, "    Note over %s,%s: %s is slow\n", id(e.Node), id(e.Peer), msgLabel(topo, m))
		case sim.EvLate:
			fmt.Fprintf(&b, "    Note over %s,%s: %s is held late\n", id(e.Node), id(e.Peer), msgLabel(topo, m))
		case sim.EvStoreGet:
			res := "not found"
			if e.Found {
				res = recordLabel(topo, e)
			}
			fmt.Fprintf(&b, "    %s->>%s: get %d\n", id(e.Node), store(e.Node, e.Label), m.Key)
			fmt.Fprintf(&b, "    %s-->>%s: %s\n", store(e.Node, e.Label), id(e.Node), res)
		case sim.EvStorePut:
			fmt.Fprintf(&b, "    %s->>%s: put %d = %s\n", id(e.Node), store(e.Node, e.Label), m.Key, recordLabel(topo, e))
		case sim.EvStoreDelete:
			what := "delete"
			if e.Found {
				what = "expire"
			}
			fmt.Fprintf(&b, "    %s->>%s: %s %d\n", id(e.Node), store(e.Node, e.Label), what, m.Key)
		case sim.EvEffect:
			fmt.Fprintf(&b, "    Note right of %s: %s %s (value %d)\n", id(e.Node), topo.SinkName(sim.SinkID(e.Label)), m.Op, m.Value)
		case sim.EvCrash:
			fmt.Fprintf(&b, "    Note over %s: CRASH at %s\n", id(e.Node), topo.PointName(sim.PointID(e.Label)))
		case sim.EvRestart:
			fmt.Fprintf(&b, "    Note over %s: restart (volatile state lost)\n", id(e.Node))
		case sim.EvPause:
			fmt.Fprintf(&b, "    Note over %s: PAUSE at %s for %s (state kept)\n", id(e.Node), topo.PointName(sim.PointID(e.Label)), sim.Time(m.Value))
		case sim.EvResume:
			fmt.Fprintf(&b, "    Note over %s: resume (queued deliveries and timers follow)\n", id(e.Node))
		case sim.EvOutcome:
			fmt.Fprintf(&b, "    Note over %s: %s result status %d value %d\n", id(e.Node), m.Op, m.Status, m.Value)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
