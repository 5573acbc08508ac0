package lab

import (
	"slices"
	"strings"
)

// A playable role is a catalog role a lab node may take over: the sinks
// its effects may go to (the others are observed at another node, such as
// the card gateway's ledger, and are out of its reach).
type playable struct {
	role  string
	sinks []string
}

// Playable lists the roles a lab node may play. Others are refused: their
// messages carry role-specific slots that docs/lab-protocol.md does not
// document yet (a broker's offsets, Kafka's producer ids, Flink's epochs).
var playableRoles = []playable{
	{role: "payment-service"},                      // double-billing and the Idempotency-Key scenarios
	{role: "consumer", sinks: []string{"billing"}}, // at-least-once-duplicate and the dedup scenarios
}

func lookupPlayable(role string) (playable, bool) {
	i := slices.IndexFunc(playableRoles, func(p playable) bool { return p.role == role })
	if i < 0 {
		return playable{}, false
	}
	return playableRoles[i], true
}

// PlayableRoles names the roles a lab node may play, for messages.
func PlayableRoles() string {
	names := make([]string, len(playableRoles))
	for i, p := range playableRoles {
		names[i] = p.role
	}
	return strings.Join(names, ", ")
}
