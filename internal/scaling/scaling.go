// Package scaling measures how the cost of a piece of work grows with its
// input, for the tests that hold the linter's cost linear: a quadratic
// reading of a crafted input stalls a pre-commit hook.
package scaling

import (
	"fmt"
	"testing"
	"time"
)

// Budget is the most a run on an input 10 times as large may cost, as a
// multiple of the run on the smaller one: a linear cost is about 10x
// (less when a fixed cost dominates), a quadratic one about 100x.
const Budget = 30

// Ratio times small and large (the same work on an input 10 times as
// large) with testing.Benchmark, and returns how many times small large
// costs and a line saying both times. It keeps the least time of each
// over up to three rounds, measuring again only while the ratio is over
// Budget, so that a moment of load on a shared machine does not fail a
// test. A single run that lasts a minute panics: its cost has no bound
// worth measuring (an exponential reading never ends).
func Ratio(small, large func()) (float64, string) {
	var s, l time.Duration
	var ratio float64
	for round := 0; round < 3 && (round == 0 || ratio > Budget); round++ {
		s, l = least(s, small), least(l, large)
		ratio = float64(l) / float64(max(s, 1))
	}
	return ratio, fmt.Sprintf("%v per run at 1x, %v at 10x: %.1fx (budget %dx)", s, l, ratio, Budget)
}

// least times f and returns its time per run, or old when that is less.
func least(old time.Duration, f func()) time.Duration {
	stop := time.AfterFunc(time.Minute, func() {
		panic("one run took more than a minute: its cost grows faster than linearly with its input")
	})
	defer stop.Stop()
	ns := time.Duration(testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			f()
		}
	}).NsPerOp())
	if old == 0 || ns < old {
		return ns
	}
	return old
}
