package sim

import "math/bits"

// Random is the Chooser of a seeded random run. Its answers are keyed: a
// decision is a pure function of the seed and of what it hits — the
// choice's identity by names (Choice.Key: kind, nodes, message kind, crash
// point, op, attempt, copy) and its occurrence (the n-th choice with that
// identity in the run) — never of its position in a stream. So one seed is
// one schedule under every semantics and every parameter: a message that
// two runs both send meets the same fate in both, however differently the
// runs went before it.
//
// A fault with probability 0 or 1 is decided without hashing or counting,
// so adding a fault kind with probability 0 changes nothing. A Random
// counts occurrences for one run: make a new one per run. Its zero value is
// not usable; call NewRandom.
type Random struct {
	seed  uint64 // the seed, spread by splitmix
	occur keyCounts
}

// NewRandom returns a Random chooser for seed.
func NewRandom(seed uint64) *Random {
	return &Random{seed: splitmix(seed)}
}

// Choose implements Chooser.
func (r *Random) Choose(c Choice) int { return r.choose(&c) }

// choose is Choose on the caller's copy of the choice.
func (r *Random) choose(c *Choice) int {
	if c.Kind.IsFault() {
		switch {
		case c.P <= 0:
			return 0
		case c.P >= 1:
			return 1
		case unit(r.draw(c)) < c.P:
			return 1
		}
		return 0
	}
	if c.N <= 1 {
		return 0
	}
	return int(below(r.draw(c), uint64(c.N)))
}

// draw returns the 64 random bits of c: the seed, c's key and its
// occurrence (times the golden ratio, so occurrences land far apart),
// through one splitmix finaliser.
func (r *Random) draw(c *Choice) uint64 {
	n := r.occur.next(c.Key)
	return splitmix(r.seed ^ c.Key + uint64(n)*0x9e3779b97f4a7c15)
}

// unit maps 64 random bits to [0, 1) with the 53 bits a float64 holds.
func unit(h uint64) float64 { return float64(h>>11) * 0x1p-53 }

// below maps 64 random bits to [0, n) by taking the high word of h·n
// (Lemire's multiply-shift without the rejection step). Its bias is at
// most n/2⁶⁴ per value — for a jitter of a few hundred ticks, about 10⁻¹⁷ —
// which no run can observe, and it costs no division.
func below(h, n uint64) uint64 {
	hi, _ := bits.Mul64(h, n)
	return hi
}

// Jitter answers the non-fault choices (extra delays) exactly as
// NewRandom(seed) would, and every fault choice with 0. A replay takes its
// faults from a plan and its jitter from the plan's seed, and so
// reproduces the recorded run.
type Jitter struct {
	r Random
}

// NewJitter returns the jitter of seed.
func NewJitter(seed uint64) *Jitter { return &Jitter{r: Random{seed: splitmix(seed)}} }

// Choose implements Chooser.
func (j *Jitter) Choose(c Choice) int {
	if c.Kind.IsFault() {
		return 0
	}
	return j.r.Choose(c)
}

// keyCounts counts choices by key in an open-addressing table (linear
// probing, power-of-two size, grown at three quarters full; the keys are
// already well mixed). It starts in an inline array of 128 slots, so a run
// that asks up to 96 distinct decisions (a default catalog run asks 3 to
// 184) allocates nothing for counting, and once grown to a run's working
// set counting allocates nothing either.
//
// A slot belongs to the run whose generation it carries: forgetting every
// count for the next run (reset) is one increment, not a clear of the
// table.
type keyCounts struct {
	slots  []keyCount
	used   int
	gen    uint32 // the generation of this run's slots
	inline [128]keyCount
}

type keyCount struct {
	key   uint64 // 0 marks an empty slot; a zero key is counted as 1
	count int32
	gen   uint32 // a slot of another generation is empty
}

// reset forgets every count, keeping the table.
func (o *keyCounts) reset() {
	o.used = 0
	o.gen++
	if o.gen == 0 { // wrapped: slots of generation 0 may be that old
		clear(o.slots)
	}
}

// next counts one more choice with key and returns its occurrence, 1-based.
func (o *keyCounts) next(key uint64) int32 {
	if key == 0 {
		key = 1
	}
	if o.slots == nil {
		o.slots = o.inline[:]
	}
	if 4*(o.used+1) > 3*len(o.slots) {
		o.grow()
	}
	mask := uint64(len(o.slots) - 1)
	for i := key & mask; ; i = (i + 1) & mask {
		s := &o.slots[i]
		if s.gen != o.gen || s.key == 0 {
			*s = keyCount{key: key, count: 1, gen: o.gen}
			o.used++
			return 1
		}
		if s.key == key {
			s.count++
			return s.count
		}
	}
}

func (o *keyCounts) grow() {
	old := o.slots
	o.slots = make([]keyCount, 2*len(old))
	mask := uint64(len(o.slots) - 1)
	for _, s := range old {
		if s.gen != o.gen || s.key == 0 {
			continue
		}
		i := s.key & mask
		for o.slots[i].gen == o.gen && o.slots[i].key != 0 {
			i = (i + 1) & mask
		}
		o.slots[i] = s
	}
}
