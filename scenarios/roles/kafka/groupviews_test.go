package kafka

import (
	"testing"

	"github.com/oncesim/once/scenarios/roles/viewtest"
	"github.com/oncesim/once/sim"
)

func TestGroupViewsRoundTrip(t *testing.T) {
	t.Run("join-group", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgJoinGroup, joinGroup.encode, decodeJoinGroup) })
	t.Run("assignment", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgAssignment, assignment.encode, decodeAssignment) })
	t.Run("heartbeat", func(t *testing.T) {
		viewtest.KindRoundTrip(t, MsgHeartbeat, func(h heartbeat) sim.Message { return h.encode(MsgHeartbeat) }, decodeHeartbeat)
	})
	t.Run("heartbeat-error", func(t *testing.T) {
		viewtest.KindRoundTrip(t, MsgHeartbeatErr, func(h heartbeat) sim.Message { return h.encode(MsgHeartbeatErr) }, decodeHeartbeat)
	})
	t.Run("group", func(t *testing.T) { viewtest.RowRoundTrip(t, viewtest.Any, groupStateRow.encode, decodeGroupStateRow) })
}
