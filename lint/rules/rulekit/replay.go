package rulekit

import (
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// Replay is an execute request that repeats an earlier one's
// idempotency_key, runnable and input, for a Language that declares
// execute.idempotency. Part II §6.5.2 step 1: the Server "returns the
// recorded result of the original Run without further processing", so a
// replay is judged only for identity with its original, never as a new
// Run (not for drift, store, trace level or trace presence).
type Replay struct {
	// Call is the repeated request; Original is the earlier execute whose
	// Run it repeats: a started Run, or a request whose answer the
	// recording lacks (a carrier error, no answer), which may have started
	// one.
	Call, Original *snapshot.Call
	// Window is true when the Language's deduplication window certainly
	// covers Call, so the Server had to treat it as the same execution:
	// the window is at least the retention period (§6.5.6), and a
	// recording has no timestamps, so that holds for retention "session"
	// (outside a stateless deployment) or a day or more, and for any
	// retention but "none" when Call is the probe sent right after
	// Original: "none" sets the window no minimum length.
	Window bool
}

// Known reports whether the original's answer is recorded, so that the
// replay can be compared with it.
func (r *Replay) Known() bool { return Started(r.Original) }

// ReplayOf returns the replay c is, when c is judged only as one: the
// window certainly covers it, or the Server answered with the original's
// run_id (it replayed), or the original's answer is not recorded (a retry
// after a lost answer, which may be a replay). Otherwise nil: a request
// outside a window that may have closed, answered with a Run of its own,
// is a new Run, as the Server may have forgotten the key.
func (m *Model) ReplayOf(c *snapshot.Call) *Replay { return m.replays[c] }

// Replays returns every replay, in recorded order.
func (m *Model) Replays() []*Replay { return m.pairs }

// Conflict returns the earlier execute whose idempotency_key c reuses with
// a different runnable or input while the window certainly holds that key:
// a request error (Part II §6.5.6, kind idempotency_conflict). Nil
// otherwise, including when the window may have closed.
func (m *Model) Conflict(c *snapshot.Call) *snapshot.Call { return m.conflicts[c] }

// NewRun reports whether c is an execute that started a Run of its own:
// started, and no replay.
func (m *Model) NewRun(c *snapshot.Call) bool {
	return c.Op == snapshot.OpExecute && Started(c) && m.replays[c] == nil
}

// Idempotent reports whether Language l declares execute.idempotency, so
// that its execute requests carrying one idempotency_key, runnable and
// input are one execution.
func Idempotent(l *snapshot.Language) bool {
	return l != nil && l.Caps.SubFeature(string(types.CapExecute), types.SubIdempotency)
}

// Runnable returns the runnable of an execute request: the inline program
// with its argument name, or program_ref; "" and nil for neither.
func Runnable(c *snapshot.Call) (string, *source.Node) {
	if c.Program != nil {
		return c.ProgramArg, c.Program
	}
	if ref := Present(c, types.ArgProgramRef); ref != nil {
		return types.ArgProgramRef, ref
	}
	return "", nil
}

// SameExecution reports whether two execute requests carry the same
// runnable and the same input, which idempotency treats as one execution
// (Part II §6.5.6); input sent as null is read as absent.
func SameExecution(a, b *snapshot.Call) bool {
	an, av := Runnable(a)
	bn, bv := Runnable(b)
	if an == "" || an != bn || !source.Equal(av, bv) {
		return false
	}
	return source.Equal(Present(a, types.ArgInput), Present(b, types.ArgInput))
}

// RunID returns the run_id string of a result, or "".
func RunID(c *snapshot.Call) string {
	id, _ := c.StructuredContent.Str(types.ArgRunID)
	return id
}

// unanswered reports whether the recording lacks c's answer: a carrier
// error (a timeout is recorded as one) or no response, after which the
// Server may or may not have started the Run.
func unanswered(c *snapshot.Call) bool {
	return c.Channel == snapshot.ChannelCarrier || c.Channel == snapshot.ChannelNone
}

// windowBounded reports whether Language l's deduplication window has a
// length at all: the window "MUST be at least as long as the declared
// retention period" (Part II §6.5.6), which "none" leaves without a
// minimum, so that under it no two calls, however close, are certainly
// inside the window. A retention that is absent or does not parse bounds
// nothing either.
func windowBounded(l *snapshot.Language) bool {
	_, pol, ok := Retention(l)
	return ok && pol.Kind != types.RetentionKindNone
}

// WithinProbeRun reports whether calls[i] and calls[j] (i < j) were both
// made by one snapshot --probe run with nothing but answered probe calls
// between them: the snapshotter sends them back to back in one Session.
func WithinProbeRun(calls []*snapshot.Call, i, j int) bool {
	for _, c := range calls[i : j+1] {
		if c.Probe == nil || c.Result == nil && c.Error == nil {
			return false
		}
	}
	return true
}

// findReplays walks the executes in order, keeping per Language and key
// the Run the Server holds for it. Keys are scoped to the Server (§6.5.6),
// but two Languages never share a runnable, so a key reused across
// Languages is judged by neither replays nor conflicts here.
func (m *Model) findReplays() {
	type key struct {
		lang *snapshot.Language
		k    string
	}
	held := map[key]int{}
	m.replays = map[*snapshot.Call]*Replay{}
	m.conflicts = map[*snapshot.Call]*snapshot.Call{}
	for j, c := range m.calls {
		k := c.Arg(types.ArgIdempotencyKey)
		if c.Op != snapshot.OpExecute || !k.IsString() || !Idempotent(c.Lang) {
			continue
		}
		at := key{c.Lang, k.Text()}
		// recorded reports whether c is held for replay from now on:
		// refused Runs are not (§6.5.6), nor are request errors.
		recorded := Started(c) || unanswered(c)
		i, ok := held[at]
		if !ok {
			if recorded {
				held[at] = j
			}
			continue
		}
		orig := m.calls[i]
		window := m.RetainsFor(c.Lang, RecordingSpan) || i == j-1 && WithinProbeRun(m.calls, i, j) && windowBounded(c.Lang)
		switch {
		case SameExecution(c, orig):
			shown := RunID(c) != "" && RunID(c) == RunID(orig)
			if window || shown || unanswered(orig) {
				r := &Replay{Call: c, Original: orig, Window: window}
				m.replays[c] = r
				m.pairs = append(m.pairs, r)
				// After a lost answer, the first recorded Run is the
				// one later repeats are compared with.
				if unanswered(orig) && Started(c) {
					held[at] = j
				}
				continue
			}
		case window && Started(orig):
			m.conflicts[c] = orig
			continue
		}
		// The window may have closed: the key was free again.
		if recorded {
			held[at] = j
		}
	}
}
