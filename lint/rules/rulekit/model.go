package rulekit

import (
	"runtime"
	"sync"
	"weak"

	"github.com/pilotagekit/pilotagekit/lint/snapshot"
)

// Model is the one reading of a recording that every rule comparing two
// or more calls asks, instead of a loop of its own over the calls: which
// executes are replays of an earlier Run and which reuse its key for
// another request (Part II §6.5.2, §6.5.6); which calls may have changed
// the catalog, the stored Runs or a later answer, so that a difference
// across them proves nothing; the scope of each call and trace entry; and
// the minor version the manifest declares. A rule that judges a call the
// model sets aside (a replay, a call after a write) either says why the
// model's reason cannot explain what it reports, or stays silent.
//
// Of returns it, built once per snapshot whichever rule asks first. It is
// read-only once built and holds no pointer to the snapshot, only to its
// calls and nodes.
type Model struct {
	calls []*snapshot.Call
	index map[*snapshot.Call]int
	// writes[i] counts the calls before calls[i] that may have changed
	// the Server's state, so that "any write between" is one subtraction.
	writes []int
	write  []bool

	replays   map[*snapshot.Call]*Replay
	pairs     []*Replay
	conflicts map[*snapshot.Call]*snapshot.Call

	entries map[entryKey][]Entry

	laterMinor bool
	extended   map[*snapshot.Call]bool
	stateless  bool
}

// models caches one Model per snapshot. The key is weak, and an entry is
// dropped when its snapshot is collected, so a long run over many inputs
// keeps only the models of the snapshots still linted; the snapshot
// package stays free of any rule's view.
var models struct {
	sync.Mutex
	m map[weak.Pointer[snapshot.Snapshot]]*modelOnce
}

type modelOnce struct {
	once sync.Once
	m    *Model
}

// Of returns the model of s, building it on the first call for s: every
// rule of one lint run gets the same instance.
func Of(s *snapshot.Snapshot) *Model {
	k := weak.Make(s)
	models.Lock()
	e := models.m[k]
	if e == nil {
		if models.m == nil {
			models.m = map[weak.Pointer[snapshot.Snapshot]]*modelOnce{}
		}
		e = &modelOnce{}
		models.m[k] = e
		runtime.AddCleanup(s, func(k weak.Pointer[snapshot.Snapshot]) {
			models.Lock()
			delete(models.m, k)
			models.Unlock()
		}, k)
	}
	models.Unlock()
	e.once.Do(func() { e.m = build(s) })
	return e.m
}

func build(s *snapshot.Snapshot) *Model {
	m := &Model{
		calls:     s.Calls,
		index:     make(map[*snapshot.Call]int, len(s.Calls)),
		stateless: s.Stateless(),
	}
	for i, c := range s.Calls {
		m.index[c] = i
	}
	m.laterMinor = DeclaresLaterMinor(s.Manifest) || s.InlineManifest != s.Manifest && DeclaresLaterMinor(s.InlineManifest)
	m.findReplays()
	m.findWrites(s)
	m.findExtended(s)
	m.findEntries()
	return m
}

// Index returns the position of c among the recorded calls, or -1 for a
// call of another snapshot.
func (m *Model) Index(c *snapshot.Call) int {
	if i, ok := m.index[c]; ok {
		return i
	}
	return -1
}
