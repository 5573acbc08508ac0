// Command viewgen writes the codecs of a role family's typed views: the
// encode and decode functions that map a view's named fields onto the
// generic slots of sim.Message, sim.Record or sim.Timer, and one
// round-trip property test over them all.
//
// A family runs it with `go generate` (a line `//go:generate go run
// ../viewgen` in its views.go); it reads the package's non-test Go files
// and writes views_gen.go and views_gen_test.go beside them. Never edit
// those by hand: TestGeneratedFilesAreCurrent regenerates every family in
// a temporary folder and fails on any difference.
//
// A view is a struct type whose doc comment ends with a directive, and
// whose every field names its slot in a tag:
//
//	// httpRequest is POST /payments. Slots: Key = the Idempotency-Key
//	// (0: none); Payload = the body's fingerprint.
//	//
//	//viewgen:message envelope decode=decodeHTTPRequest
//	type httpRequest struct {
//		Key  idemKey     `slot:"Key"`
//		Body fingerprint `slot:"Payload"`
//	}
//
// The directive is //viewgen:message, //viewgen:record or //viewgen:timer,
// then options:
//
//   - envelope (message): encode(e roles.Envelope) takes the kind,
//     operation and attempt from e, and onto(m) sets the view's slots of a
//     message it is given (the others kept);
//   - kind=MsgX (message, timer): encode() stamps that kind (a timer's
//     encode is timer(op sim.OpID), the timer of operation op);
//   - kind=caller (message): encode(kind sim.MsgKind), for a view several
//     kinds share;
//   - Slot=expr: a slot the view does not map holds the constant expr
//     (written by encode, not read back by decode);
//   - decode=name: the decoder's name, where decode+Type is not Go's
//     spelling (decodeHTTPRequest, not decodeHttpRequest).
//
// The slots are sim.Message's Kind, Op, Attempt, Key, Payload, Value,
// Status; sim.Record's State, Status, Value, Aux, At; sim.Timer's
// Attempt, Key, Phase. A field's type is an integer type, a type defined
// on one in the package (type idemKey int64), sim.OpID, sim.Time,
// sim.NodeID, sim.MsgKind, or bool (1 for true, read back as non-zero);
// it must fit its slot, so that a view round-trips over its field's whole
// Go type — the range its doc comment documents. A slot not named is 0.
//
// The codec of exported view T is T.Encode (T.Onto, T.Timer) and
// DecodeT; of an unexported one, encode (onto, timer) and decodeT. A view
// whose mapping is not a plain slot assignment (two shapes under one
// state, an offset, a nested view) keeps a hand-written codec without a
// directive.
package main
