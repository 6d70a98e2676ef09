package rulekit

import (
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// Writes reports whether c may have changed the Server's state: the
// catalog, promoted programs, stored Runs, and so any later answer. A rule
// that compares two answers across such a call says why the change cannot
// explain the difference, or stays silent. These calls change nothing:
//
//   - pilotage_manifest, the guide and catalog tools, validate and the
//     trace fetch door, which only read (Part II §6.1, §6.4 "create no
//     externally observable state change");
//   - an execute answered with a request error, or refused with
//     validation_error, catalog_drift or promotion_drift: execution
//     begins only after every check succeeds, and a refusal has "no side
//     effects" (§5.7, §6.5.2);
//   - a replay, answered "without further processing" (§6.5.2);
//   - a test run of a Language declaring execute.test_run, evaluated
//     "without side effects" (§6.5.7); the record it may leave is its own
//     Run's, which no other answer depends on;
//   - a server tool whose tools/list entry declares readOnlyHint: true: the
//     Server's own claim that the tool does not modify its environment,
//     so a difference across it is still the Server's fault.
//
// Every other call may have written: an execute that started (or whose
// answer is lost), a deploy, and any server tool without readOnlyHint.
func (m *Model) Writes(c *snapshot.Call) bool {
	if i, ok := m.index[c]; ok {
		return m.write[i]
	}
	return true
}

// ReadsBetween reports whether only reads lie strictly between a and b
// (in either order): no call between them may have changed the Server's
// state. A call of another snapshot has nothing between.
func (m *Model) ReadsBetween(a, b *snapshot.Call) bool {
	i, j := m.Index(a), m.Index(b)
	if i < 0 || j < 0 {
		return true
	}
	if i > j {
		i, j = j, i
	}
	return j-i < 2 || m.writes[j]-m.writes[i+1] == 0
}

func (m *Model) findWrites(s *snapshot.Snapshot) {
	m.write = make([]bool, len(m.calls))
	m.writes = make([]int, len(m.calls)+1)
	for i, c := range m.calls {
		m.write[i] = m.mayWrite(s, c)
		m.writes[i+1] = m.writes[i]
		if m.write[i] {
			m.writes[i+1]++
		}
	}
}

func (m *Model) mayWrite(s *snapshot.Snapshot, c *snapshot.Call) bool {
	switch c.Op {
	case snapshot.OpGuideIndex, snapshot.OpGuideFetch, snapshot.OpCatalog, snapshot.OpValidate, snapshot.OpTraceFetch:
		return false
	case snapshot.OpExecute:
		switch {
		case c.Channel == snapshot.ChannelRequestError, c.Succeeded() && !Started(c) && c.StructuredContent.Get("outcome").IsObject():
			return false
		case m.replays[c] != nil && Started(m.replays[c].Original):
			return false
		case Started(c) && True(c.Arg(types.ArgTestRun)) && c.Lang != nil && c.Lang.Caps.SubFeature(string(types.CapExecute), types.SubTestRun):
			return false
		}
		return true
	}
	if c.Name == types.ToolManifest {
		return false
	}
	t := s.Tool(c.Name)
	return t == nil || !True(t.Annotations.Get("readOnlyHint"))
}
