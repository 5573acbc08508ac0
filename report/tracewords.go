package report

import (
	"sync"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/sim"
)

// traceWords are the words of the text trace (Describe) in one language:
// the verb column and the few phrases after it. In English they are the
// trace's own words, byte for byte (the golden traces); in Romanian and
// Russian a student reads them in the course's words, message kinds, node
// and table names staying as they are.
type traceWords struct {
	send, deliver, drop, duplicate, slow, late, preempt, heldBack        string
	timer, phase, crash, at, restart, restarted, pause, pauseFor, resume string
	resumed, get, put, expire, expired, deleted, notFound, effect, out   string
	english                                                              bool
}

// traceID prefixes the message ids of the trace's words.
const traceID = "trace."

var traceWordCache sync.Map // lang.Lang → *traceWords

// wordsOfTrace are the trace's words in the current language.
func wordsOfTrace() *traceWords {
	l := lang.Current()
	if w, ok := traceWordCache.Load(l); ok {
		return w.(*traceWords)
	}
	t := func(id string) string { return l.T(traceID + id) }
	w := &traceWords{send: t("send"), deliver: t("deliver"), drop: t("drop"), duplicate: t("duplicated"), slow: t("slowed"),
		late: t("held_late"), preempt: t("preempted"), heldBack: t("held_back"), timer: t("timer"), phase: t("phase"),
		crash: t("crashed"), at: t("at"), restart: t("restart"), restarted: t("restarted"), pause: t("paused"),
		pauseFor: t("pause_for"), resume: t("resume"), resumed: t("resumed"), get: t("get"), put: t("put"),
		expire: t("expire"), expired: t("expired"), deleted: t("delete"), notFound: t("not_found"),
		effect: t("effect"), out: t("outcome"), english: l == lang.English}
	traceWordCache.Store(l, w)
	return w
}

// reason is a drop's reason as the trace says it: the English identifier
// (loss, partition, down) in English, the course's words otherwise.
func (w *traceWords) reason(r sim.DropReason) string {
	if w.english {
		return r.String()
	}
	return DropReasonWords(r)
}

// kind is the trace's word for an event kind: the verb column. A kind the
// words above do not name (one a build registered) is its name, looked up
// under trace.<name> in the locale files.
func (w *traceWords) kind(kinds *sim.Registry, k sim.EventKind) string {
	switch k {
	case sim.EvSend:
		return w.send
	case sim.EvDeliver:
		return w.deliver
	case sim.EvDrop:
		return w.drop
	case sim.EvDuplicate:
		return w.duplicate
	case sim.EvSlow:
		return w.slow
	case sim.EvLate:
		return w.late
	case sim.EvPreempt:
		return w.preempt
	case sim.EvTimerFire:
		return w.timer
	case sim.EvCrash:
		return w.crash
	case sim.EvRestart:
		return w.restart
	case sim.EvPause:
		return w.pause
	case sim.EvResume:
		return w.resume
	case sim.EvStoreGet:
		return w.get
	case sim.EvStorePut:
		return w.put
	case sim.EvStoreDelete:
		return w.deleted
	case sim.EvEffect:
		return w.effect
	case sim.EvOutcome:
		return w.out
	}
	return lang.Word("kind", kinds.EventName(k))
}

// KindLabel is an event kind's label in the current language, the word
// the text trace's verb column gives it ("send", "slowed", "preempted";
// the course's words in Romanian and Russian): a kind the locale files do
// not name (one a build registered) is its name in the event-kind table,
// translated under kind.<name> when the locale files have it.
func KindLabel(k sim.EventKind) string { return wordsOfTrace().kind(nil, k) }

// EventLabel is KindLabel for an event of topo's trace: a kind topo's
// registry added (sim.Registry.AddLinkFault) is named as that registry
// names it.
func EventLabel(topo *sim.Topology, k sim.EventKind) string {
	return wordsOfTrace().kind(topo.Registry(), k)
}

// EventClass is event kind k's render class in topo's registry: every
// view switches on it.
func EventClass(topo *sim.Topology, k sim.EventKind) sim.RenderClass {
	return topo.Registry().EventClass(k)
}
