package live

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/oncesim/once/sim"
)

// replayKeyHistory reads every write the database recorded on
// idempotency_keys (the key_history table its triggers fill) and records
// each as the simulator's store event on the service's keys table — a put
// with the row as the simulator encodes it (state, body fingerprint, and
// the stored status and result, or the op), or a delete — so the
// scenario's invariants judge what the database holds, not what the
// service says it did.
func replayKeyHistory(ctx context.Context, db *DB, dec *Decider, topo *sim.Topology, service sim.NodeID) error {
	spec := &topo.Nodes[service]
	table := -1
	for i, t := range spec.Tables {
		if t.Name == "keys" {
			table = i
		}
	}
	if table < 0 || !spec.Tables[table].Traced {
		return nil
	}
	states := spec.Tables[table].States
	rows, err := db.Query(ctx, "SELECT idempotency_key, op, status, request_body, response_code, response_body, deleted FROM key_history ORDER BY seq")
	if err != nil {
		return fmt.Errorf("live: key history: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var key, status, reqBody string
		var op int32
		var code sql.NullInt64
		var respBody sql.NullString
		var deleted int
		if err := rows.Scan(&key, &op, &status, &reqBody, &code, &respBody, &deleted); err != nil {
			return fmt.Errorf("live: key history: %w", err)
		}
		e := sim.Event{Kind: sim.EvStorePut, Node: service, Peer: sim.NoNode, Label: uint16(table),
			Msg: sim.Message{Key: dec.KeyID(key), Op: sim.OpID(op)}}
		if deleted != 0 {
			e.Kind = sim.EvStoreDelete
			dec.Record(e)
			continue
		}
		var req paymentRequest
		json.Unmarshal([]byte(reqBody), &req)
		e.Rec = sim.Record{State: int32(max(slices.Index(states, status), 0)), Aux: req.Amount}
		if status == StatusCompleted {
			var resp paymentResponse
			json.Unmarshal([]byte(respBody.String), &resp)
			e.Rec.Status, e.Rec.Value = int32(code.Int64), resp.TxnID
		} else {
			e.Rec.Value = int64(op)
		}
		dec.Record(e)
	}
	return rows.Err()
}
