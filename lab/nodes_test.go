package lab_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

// The test binary plays lab nodes itself: started as `<test binary>
// lab-node NAME`, TestMain runs node NAME instead of the tests. A fast
// Go node, no interpreter and no build.
const nodeArg = "lab-node"

// testNode is argv for the test binary playing node name.
func testNode(name string, args ...string) []string {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	return append([]string{exe, nodeArg, name}, args...)
}

type line struct {
	Src  string          `json:"src"`
	Dest string          `json:"dest"`
	Body json.RawMessage `json:"body"`
}

type event struct {
	Type    string `json:"type"`
	MsgID   int64  `json:"msg_id"`
	NodeID  string `json:"node_id"`
	Op      int64  `json:"op"`
	Attempt int64  `json:"attempt"`
	Key     int64  `json:"key"`
	Payload int64  `json:"payload"`
	Value   int64  `json:"value"`
	// Incarnation is init's: 1 at boot, one more per restart.
	Incarnation int `json:"incarnation"`
}

// storeScript is what node store-ops asks the durable store, in order.
var storeScript = []string{
	`{"type":"insert_if_absent","key":7,"record":{"state":"PROCESSING","value":0}}`,
	`{"type":"insert_if_absent","key":7,"record":{"state":"COMPLETED","value":5}}`,
	`{"type":"read","key":7}`,
	`{"type":"compare_and_set","key":7,"expected":{"state":"COMPLETED"},"record":{"state":"COMPLETED","value":1}}`,
	`{"type":"compare_and_set","key":7,"expected":{"state":"PROCESSING"},"record":{"state":"COMPLETED","value":9}}`,
	`{"type":"update","key":8,"record":{"value":1}}`,
	`{"type":"update","key":7,"record":{"state":"COMPLETED","status":201,"value":0,"aux":0}}`,
	`{"type":"read","key":7}`,
	`{"type":"set_nx_px","key":9,"value":1,"ttl":1000}`,
	`{"type":"set_nx_px","key":9,"value":2,"ttl":1000}`,
	`{"type":"list"}`,
	`{"type":"insert","key":1,"record":{"value":9007199254740992}}`,
}

// runTestNode plays node name on stdin and stdout; arg is its argument.
func runTestNode(name, arg string) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	me := ""
	say := func(dest, body string) {
		fmt.Fprintf(out, `{"src":%q,"dest":%q,"body":%s}`+"\n", me, dest, body)
	}
	seen := 0        // events since init (reset-* nodes)
	var billed int64 // deliveries billed by this process, never reset (random-consumer)
	resets := strings.HasPrefix(name, "reset-") && !slices.Contains(strings.Split(arg, ","), "no-reset")
	for in.Scan() {
		var l line
		var ev event
		if json.Unmarshal(in.Bytes(), &l) != nil || json.Unmarshal(l.Body, &ev) != nil {
			os.Exit(9)
		}
		if ev.Type == "init" {
			me = ev.NodeID
		}
		seen++
		if ev.Type == "reset" {
			switch name {
			case "reset-bad": // answers a reset with an action
				say("harness", `{"type":"set_timer","name":"retry","after":1}`)
			case "reset-leaky": // forgets to clear its count
			default:
				seen = 0
			}
			say("harness", fmt.Sprintf(`{"type":"done","in_reply_to":%d}`, ev.MsgID))
			out.Flush()
			continue
		}
		switch name {
		case "reset-consumer", "reset-leaky", "reset-bad", "reset-init-sends", "reset-spawner": // dedup by op in durable; bills the count of events seen
			if name == "reset-spawner" && ev.Type == "deliver" { // a child per delivery, never waited for
				switch {
				case strings.Contains(arg, "double-fork"): // an orphan in a session of its own
					_ = exec.Command("sh", "-c", "setsid sleep 300 >/dev/null 2>&1 &").Run()
				case strings.Contains(arg, "setsid"): // a child in a session of its own
					c := exec.Command("sleep", "300")
					c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
					_ = c.Start()
				default: // a child in the node's group
					_ = exec.Command("sleep", "300").Start()
				}
			}
			if name == "reset-init-sends" && ev.Type == "init" && ev.Incarnation > 1 { // a recovery that sends
				say("broker", `{"type":"commit","op":1,"attempt":1,"key":1}`)
			}
			if ev.Type == "deliver" {
				say("durable", fmt.Sprintf(`{"type":"insert_if_absent","msg_id":1,"key":%d,"record":{"state":"COMPLETED"}}`, ev.Op))
				out.Flush()
				if !in.Scan() {
					os.Exit(8)
				}
				if strings.Contains(in.Text(), `"inserted":true`) {
					value := 1
					if name == "reset-leaky" {
						value = seen
					}
					say("billing", fmt.Sprintf(`{"type":"effect","op":%d,"value":%d}`, ev.Op, value))
				}
				say(l.Src, fmt.Sprintf(`{"type":"commit","op":%d,"attempt":%d,"key":%d}`, ev.Op, ev.Attempt, ev.Key))
			}
		case "hang": // a child in its group, then no answer
			_ = exec.Command("sleep", "300").Start()
			time.Sleep(300 * time.Second)
		case "setsid": // a grandchild in a session of its own
			if ev.Type == "init" {
				c := exec.Command("sleep", "300")
				c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
				_ = c.Start()
			}
		case "double-fork": // a grandchild whose parent exits at once: an orphan
			if ev.Type == "init" {
				_ = exec.Command("sh", "-c", "setsid sleep 300 >/dev/null 2>&1 &").Run()
			}
		case "init-sends": // charges every pay; recovery in a restarted init: a charge sent before done
			switch {
			case ev.Type == "init" && ev.Incarnation > 1:
				say("gateway", `{"type":"charge","op":1,"attempt":1,"key":1,"payload":1}`)
			case ev.Type == "pay":
				say("gateway", fmt.Sprintf(`{"type":"charge","op":%d,"attempt":%d,"key":%d,"payload":%d}`, ev.Op, ev.Attempt, ev.Key, ev.Payload))
			case ev.Type == "charge-result":
				say("client", fmt.Sprintf(`{"type":"pay-response","op":%d,"attempt":%d,"status":201,"value":%d}`, ev.Op, ev.Attempt, ev.Value))
			}
		case "sleep": // no answer, no child
			time.Sleep(300 * time.Second)
		case "die":
			fmt.Fprintln(os.Stderr, "giving up")
			os.Exit(3)
		case "first-run-bills-twice": // keeps state across runs in file arg
			if ev.Type == "deliver" {
				say("billing", fmt.Sprintf(`{"type":"effect","op":%d,"value":1}`, ev.Op))
				if f, err := os.OpenFile(arg, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600); err == nil {
					f.Close()
					say("billing", fmt.Sprintf(`{"type":"effect","op":%d,"value":1}`, ev.Op))
				}
				say(l.Src, fmt.Sprintf(`{"type":"commit","op":%d,"attempt":%d,"key":%d}`, ev.Op, ev.Attempt, ev.Key))
			}
		case "bad-dest": // an effect on a sink of another scenario
			if ev.Type == "init" {
				say("emails", `{"type":"effect","op":1,"value":1}`)
			}
		case "typo-record": // a field the protocol does not know, inside a record
			if ev.Type == "init" {
				say("durable", `{"type":"write","msg_id":1,"key":1,"record":{"state":"COMPLETED","note":"x"}}`)
			}
		case "random-consumer", "reset-random": // bills a value no two runs share, as a clock would (the clock itself repeated 1 time in 1,000 in CI)
			if ev.Type == "deliver" {
				billed++
				say("billing", fmt.Sprintf(`{"type":"effect","op":%d,"value":%d}`, ev.Op, int64(os.Getpid())*1_000_000+billed))
				say(l.Src, fmt.Sprintf(`{"type":"commit","op":%d,"attempt":%d,"key":%d}`, ev.Op, ev.Attempt, ev.Key))
			}
		case "store-ops": // every store request at init, each answer echoed on stderr
			if ev.Type == "init" {
				for i, req := range storeScript {
					say("durable", strings.Replace(req, "{", fmt.Sprintf(`{"msg_id":%d,`, i+1), 1))
					out.Flush()
					if !in.Scan() {
						os.Exit(8)
					}
					var ans line
					_ = json.Unmarshal(in.Bytes(), &ans)
					fmt.Fprintf(os.Stderr, "%s\n", ans.Body)
				}
			}
		case "commit-first-consumer", "reset-commit-first": // dedup by op in durable, but commits the offset before it records and bills
			if ev.Type == "deliver" {
				say(l.Src, fmt.Sprintf(`{"type":"commit","op":%d,"attempt":%d,"key":%d}`, ev.Op, ev.Attempt, ev.Key))
				say("durable", fmt.Sprintf(`{"type":"insert_if_absent","msg_id":1,"key":%d,"record":{"state":"COMPLETED"}}`, ev.Op))
				out.Flush()
				if !in.Scan() {
					os.Exit(8)
				}
				if strings.Contains(in.Text(), `"inserted":true`) {
					say("billing", fmt.Sprintf(`{"type":"effect","op":%d,"value":1}`, ev.Op))
				}
			}
		case "racy-service", "unique-service", "recompute-service": // check then insert, or one atomic insert; recompute-service renders a replay's transaction id again
			ask := func(req string) map[string]any {
				say("durable", req)
				out.Flush()
				if !in.Scan() {
					os.Exit(8)
				}
				var ans struct{ Body map[string]any }
				_ = json.Unmarshal(in.Bytes(), &ans)
				return ans.Body
			}
			switch ev.Type {
			case "pay":
				row := fmt.Sprintf(`{"state":"PROCESSING","value":%d,"aux":%d}`, ev.Payload, ev.Op)
				var found bool
				var state any
				if name == "racy-service" {
					a := ask(fmt.Sprintf(`{"type":"read","msg_id":1,"key":%d,"op":%d}`, ev.Key, ev.Op))
					found = a["found"] == true
					if !found {
						ask(fmt.Sprintf(`{"type":"write","msg_id":2,"key":%d,"op":%d,"record":%s}`, ev.Key, ev.Op, row))
					}
					if rec, ok := a["record"].(map[string]any); ok {
						state = rec["state"]
					}
				} else {
					a := ask(fmt.Sprintf(`{"type":"insert_if_absent","msg_id":1,"key":%d,"op":%d,"record":%s}`, ev.Key, ev.Op, row))
					found = a["inserted"] == false
					if rec, ok := a["record"].(map[string]any); ok {
						state = rec["state"]
					}
				}
				switch {
				case !found:
					say("gateway", fmt.Sprintf(`{"type":"charge","op":%d,"attempt":%d,"key":%d,"payload":%d}`, ev.Op, ev.Attempt, ev.Key, ev.Payload))
				case state == "COMPLETED":
					a := ask(fmt.Sprintf(`{"type":"read","msg_id":3,"key":%d,"op":%d}`, ev.Key, ev.Op))
					rec, _ := a["record"].(map[string]any)
					value, _ := rec["value"].(float64)
					if name == "recompute-service" {
						value += float64(1000 * ev.Attempt) // a new transaction id for the same charge
					}
					say(l.Src, fmt.Sprintf(`{"type":"pay-response","op":%d,"attempt":%d,"status":201,"value":%d}`, ev.Op, ev.Attempt, int64(value)))
				default:
					say(l.Src, fmt.Sprintf(`{"type":"pay-response","op":%d,"attempt":%d,"status":409}`, ev.Op, ev.Attempt))
				}
			case "charge-result":
				ask(fmt.Sprintf(`{"type":"write","msg_id":4,"key":%d,"op":%d,"record":{"state":"COMPLETED","status":201,"value":%d}}`, ev.Key, ev.Op, ev.Value))
				say("client", fmt.Sprintf(`{"type":"pay-response","op":%d,"attempt":%d,"status":201,"value":%d}`, ev.Op, ev.Attempt, ev.Value))
			}
		case "no-recovery": // the idempotency protocol without recovery: a key left PROCESSING by a crash answers 409 forever
			ask := func(req string) map[string]any {
				say("durable", req)
				out.Flush()
				if !in.Scan() {
					os.Exit(8)
				}
				var ans struct{ Body map[string]any }
				_ = json.Unmarshal(in.Bytes(), &ans)
				return ans.Body
			}
			switch ev.Type {
			case "pay":
				a := ask(fmt.Sprintf(`{"type":"insert_if_absent","msg_id":1,"key":%d,"op":%d,"record":{"state":"PROCESSING","value":%d}}`, ev.Key, ev.Op, ev.Payload))
				rec, _ := a["record"].(map[string]any)
				switch {
				case a["inserted"] == true:
					say("gateway", fmt.Sprintf(`{"type":"charge","op":%d,"attempt":%d,"key":%d,"payload":%d}`, ev.Op, ev.Attempt, ev.Key, ev.Payload))
				case rec["state"] == "COMPLETED":
					say(l.Src, fmt.Sprintf(`{"type":"pay-response","op":%d,"attempt":%d,"status":201,"value":%v}`, ev.Op, ev.Attempt, rec["value"]))
				default:
					say(l.Src, fmt.Sprintf(`{"type":"pay-response","op":%d,"attempt":%d,"status":409}`, ev.Op, ev.Attempt))
				}
			case "charge-result":
				ask(fmt.Sprintf(`{"type":"write","msg_id":2,"key":%d,"op":%d,"record":{"state":"COMPLETED","status":201,"value":%d}}`, ev.Key, ev.Op, ev.Value))
				say("client", fmt.Sprintf(`{"type":"pay-response","op":%d,"attempt":%d,"status":201,"value":%d}`, ev.Op, ev.Attempt, ev.Value))
			}
		case "timer-cancel": // two timers per delivery, the second cancelled at once; commits when one fires
			switch ev.Type {
			case "deliver":
				say("billing", fmt.Sprintf(`{"type":"effect","op":%d,"value":1}`, ev.Op))
				say("harness", fmt.Sprintf(`{"type":"set_timer","name":"retry","after":50,"timer_id":%d,"op":%d}`, 2*ev.Op, ev.Op))
				say("harness", fmt.Sprintf(`{"type":"set_timer","name":"retry","after":60,"timer_id":%d}`, 2*ev.Op+1))
				say("harness", fmt.Sprintf(`{"type":"cancel_timer","timer_id":%d}`, 2*ev.Op+1))
			case "timer":
				if ev.Op == 0 {
					os.Exit(7) // the cancelled timer was handed over
				}
				say("broker", fmt.Sprintf(`{"type":"commit","op":%d,"attempt":1,"key":%d}`, ev.Op, ev.Op))
			}
		case "timer-flood":
			for range 1000 {
				say("harness", `{"type":"set_timer","name":"retry","after":0}`)
			}
		case "stderr-flood":
			chunk := strings.Repeat("x", 1<<20-1) + "\n"
			for range 20 {
				os.Stderr.WriteString(chunk)
			}
		}
		if ev.Type == "pay" && name != "racy-service" && name != "unique-service" && name != "recompute-service" && name != "init-sends" && name != "no-recovery" { // answered at once, never charged: the run ends soon
			say(l.Src, fmt.Sprintf(`{"type":"pay-response","op":%d,"attempt":%d,"status":201,"value":1}`, ev.Op, ev.Attempt))
		}
		if ev.Type == "init" && resets {
			say("harness", fmt.Sprintf(`{"type":"done","in_reply_to":%d,"capabilities":["reset"]}`, ev.MsgID))
		} else {
			say("harness", fmt.Sprintf(`{"type":"done","in_reply_to":%d}`, ev.MsgID))
		}
		out.Flush()
	}
}
