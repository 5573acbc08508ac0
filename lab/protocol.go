package lab

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// Addresses that are not nodes: the harness itself and its two stores.
const (
	addrHarness  = "harness"
	addrDurable  = "durable"
	addrVolatile = "volatile"
)

// envelope is Maelstrom's: every line, either way, is one of these.
type envelope struct {
	Src  string          `json:"src"`
	Dest string          `json:"dest"`
	Body json.RawMessage `json:"body"`
}

// body holds every field any message body may carry; which ones a type
// needs is checked by the code that handles it. Unknown fields are an
// error, so a typo is named instead of silently ignored.
type body struct {
	Type      string `json:"type"`
	MsgID     *int64 `json:"msg_id,omitempty"`
	InReplyTo *int64 `json:"in_reply_to,omitempty"`

	// The slots of a message between nodes (docs/lab-protocol.md lists
	// what each means for each message type).
	Op      *int64 `json:"op,omitempty"`
	Attempt *int64 `json:"attempt,omitempty"`
	Key     *int64 `json:"key,omitempty"`
	Payload *int64 `json:"payload,omitempty"`
	Value   *int64 `json:"value,omitempty"`
	Status  *int64 `json:"status,omitempty"`

	// init
	NodeID      string   `json:"node_id,omitempty"`
	NodeIDs     []string `json:"node_ids,omitempty"`
	Seed        *uint64  `json:"seed,omitempty"`
	Incarnation int      `json:"incarnation,omitempty"`
	Semantics   string   `json:"semantics,omitempty"`
	Role        string   `json:"role,omitempty"`
	Ops         int      `json:"ops,omitempty"`
	Time        *int64   `json:"time,omitempty"`
	Replica     *int64   `json:"replica,omitempty"`  // 1..replicas, when there are several
	Replicas    *int64   `json:"replicas,omitempty"` // how many processes play the node

	// The done that answers init may declare optional capabilities
	// (capReset).
	Capabilities []string `json:"capabilities,omitempty"`

	// timers
	Name    string `json:"name,omitempty"`
	After   *int64 `json:"after,omitempty"`
	TimerID *int64 `json:"timer_id,omitempty"`

	// stores
	Record   *record  `json:"record,omitempty"`
	Expected *record  `json:"expected,omitempty"` // compare_and_set
	TTL      *int64   `json:"ttl,omitempty"`      // set_nx_px, milliseconds
	Found    *bool    `json:"found,omitempty"`
	Inserted *bool    `json:"inserted,omitempty"` // insert_if_absent
	Updated  *bool    `json:"updated,omitempty"`  // update
	Swapped  *bool    `json:"swapped,omitempty"`  // compare_and_set
	Acquired *bool    `json:"acquired,omitempty"` // set_nx_px
	Keys     *[]int64 `json:"keys,omitempty"`
}

// record is a row of a store: the fields of sim.Record a student may set.
// Every field is written, zero or not, so a row reads back with the same
// fields it was written with ("state" is "" for none).
type record struct {
	State  string `json:"state"`
	Status int32  `json:"status"`
	Value  int64  `json:"value"`
	Aux    int64  `json:"aux"`
}

// maxSafe is the largest integer every JSON parser holds exactly
// (JavaScript's Number.MAX_SAFE_INTEGER is 2^53 - 1).
const maxSafe = 1<<53 - 1

// checkSafe refuses an integer a JavaScript node could not read back: the
// harness keeps int64, JSON.parse a double.
func checkSafe(field string, v *int64) error {
	if v != nil && (*v > maxSafe || *v < -maxSafe) {
		return fieldErr(field, "%d is beyond ±2^53-1: a JSON number past it is not exact in JavaScript and other parsers (keep integers within ±9007199254740991)", *v)
	}
	return nil
}

// checkInts checks every integer of a body a node wrote.
func (b *body) checkInts() error {
	ints := []struct {
		name string
		v    *int64
	}{{"msg_id", b.MsgID}, {"in_reply_to", b.InReplyTo}, {"op", b.Op}, {"attempt", b.Attempt}, {"key", b.Key},
		{"payload", b.Payload}, {"value", b.Value}, {"status", b.Status}, {"after", b.After}, {"timer_id", b.TimerID}, {"ttl", b.TTL}}
	for _, f := range ints {
		if err := checkSafe("body."+f.name, f.v); err != nil {
			return err
		}
	}
	for _, r := range []struct {
		name string
		r    *record
	}{{"record", b.Record}, {"expected", b.Expected}} {
		if r.r == nil {
			continue
		}
		for _, f := range []struct {
			name string
			v    int64
		}{{"value", r.r.Value}, {"aux", r.r.Aux}} {
			if err := checkSafe("body."+r.name+"."+f.name, &f.v); err != nil {
				return err
			}
		}
	}
	return nil
}

// protocolError is a line that is JSON but breaks the protocol; it names
// the field.
type protocolError struct {
	field string
	msg   string
}

func (e *protocolError) Error() string {
	if strings.HasPrefix(e.msg, "is ") {
		return fmt.Sprintf("field %s %s", e.field, e.msg)
	}
	return fmt.Sprintf("field %s: %s", e.field, e.msg)
}

func fieldErr(field, format string, args ...any) error {
	return &protocolError{field: field, msg: fmt.Sprintf(format, args...)}
}

// notJSON is a line that is not a JSON object.
type notJSON struct{ line string }

func (e *notJSON) Error() string {
	return fmt.Sprintf("wrote a line that is not JSON: %s", quoteLine(e.line))
}

// quoteLine shows a line in an error, cut to a readable length.
func quoteLine(line string) string {
	const max = 120
	if len(line) > max {
		line = line[:max] + "…"
	}
	return fmt.Sprintf("%q", line)
}

// parseLine decodes one line a node wrote.
func parseLine(line []byte) (envelope, body, error) {
	var env envelope
	var b body
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
		return env, b, &notJSON{line: string(line)}
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&env); err != nil {
		return env, b, decodeErr(err, "")
	}
	if env.Src == "" {
		return env, b, fieldErr("src", "missing")
	}
	if env.Dest == "" {
		return env, b, fieldErr("dest", "missing")
	}
	if len(env.Body) == 0 || string(env.Body) == "null" {
		return env, b, fieldErr("body", "missing")
	}
	dec = json.NewDecoder(bytes.NewReader(env.Body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		if path := unknownPath(env.Body); path != "" && strings.Contains(err.Error(), "unknown field") {
			return env, b, fieldErr(path, "is not a field of the protocol (a typo?)")
		}
		return env, b, decodeErr(err, "body.")
	}
	if b.Type == "" {
		return env, b, fieldErr("body.type", "missing")
	}
	if err := b.checkInts(); err != nil {
		return env, b, err
	}
	return env, b, nil
}

// decodeErr names the field a decoding error is about.
func decodeErr(err error, prefix string) error {
	if strings.Contains(err.Error(), "unknown field") {
		return fieldErr(unknownField(err, prefix), "is not a field of the protocol (a typo?)")
	}
	return fieldErr(unknownField(err, prefix), "%s", cleanJSONErr(err))
}

// unknownField names the field a decoding error is about, when it says.
func unknownField(err error, prefix string) string {
	s := err.Error()
	if i := strings.Index(s, `unknown field "`); i >= 0 {
		rest := s[i+len(`unknown field "`):]
		if j := strings.IndexByte(rest, '"'); j >= 0 {
			return prefix + rest[:j]
		}
	}
	var te *json.UnmarshalTypeError
	if ok := asType(err, &te); ok && te.Field != "" {
		return prefix + te.Field
	}
	return strings.TrimSuffix(prefix, ".")
}

func asType(err error, target **json.UnmarshalTypeError) bool {
	te, ok := err.(*json.UnmarshalTypeError)
	if ok {
		*target = te
	}
	return ok
}

func cleanJSONErr(err error) string {
	s := err.Error()
	s = strings.TrimPrefix(s, "json: ")
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		return fmt.Sprintf("want a %s, got a JSON %s", te.Type, te.Value)
	}
	return s
}

// encodeLine writes a line the harness sends: an envelope with body b.
func encodeLine(src, dest string, b *body) []byte {
	raw, err := json.Marshal(b)
	if err != nil {
		panic("lab: cannot encode a body: " + err.Error()) // only plain fields: a bug of this package
	}
	line, err := json.Marshal(envelope{Src: src, Dest: dest, Body: raw})
	if err != nil {
		panic("lab: cannot encode an envelope: " + err.Error())
	}
	return line
}

func i64(v int64) *int64 { return &v }

// unknownPath is the full path of the first field (in sorted order) of
// a body that the protocol does not know, nested ones included
// ("body.record.note", where the decoder says only "note"); "" if none.
func unknownPath(raw []byte) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	known := jsonFields(reflect.TypeFor[body]())
	rec := jsonFields(reflect.TypeFor[record]())
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !known[k] {
			return "body." + k
		}
	}
	for _, k := range []string{"record", "expected"} {
		var r map[string]json.RawMessage
		if json.Unmarshal(m[k], &r) != nil {
			continue
		}
		inner := make([]string, 0, len(r))
		for f := range r {
			inner = append(inner, f)
		}
		sort.Strings(inner)
		for _, f := range inner {
			if !rec[f] {
				return "body." + k + "." + f
			}
		}
	}
	return ""
}

// jsonFields are the JSON names of a struct's fields.
func jsonFields(t reflect.Type) map[string]bool {
	out := map[string]bool{}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		out[name] = true
	}
	return out
}
