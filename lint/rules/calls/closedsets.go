package calls

import (
	"fmt"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

func callClosedSetRules() []*lint.Rule {
	return []*lint.Rule{
		{
			ID: "call-closed-set-unlisted", Severity: lint.Error, Spec: "Part II §1.5, §5.2, §5.5, §5.7",
			Quote:   "[That set:] - MUST be enumerated in the Language's closed-sets guide defined in Section 5.2.",
			Keyword: "MUST",
			Summary: "A recorded diagnostic code, outcome status, entry kind or risk level that the engine defines occurs nowhere in the Language's closed-sets guide, fetched whole.",
			Doc:     "Entry kinds, risk levels, run-level and step-level outcome statuses and diagnostic codes are engine-defined closed sets, and each MUST be enumerated in the Language's closed-sets guide (Part II §1.5, §5.2, §5.5, §5.7): it is the only place an agent learns which values exist, and a Client that meets an unlisted status must read it as partial. Whether the guide's prose enumerates a value cannot be read mechanically, but a value whose string occurs nowhere in the guide was certainly not enumerated. The rule judges a Language only when its closed-sets guide was fetched whole (without topic, or every topic of it), matches case-insensitively anywhere in the body, and leaves out the values the spec itself reserves (the six reserved statuses, constraint, input_binding and context_binding).",
			Bad:     `guide "reference" (topics ["closed-sets"]) body "... statuses: success, partial, error ..."   execute -> {"outcome": {"ok": false, "status": "timed_out", "error": "..."}}`,
			Good:    `guide "reference" (topics ["closed-sets"]) body "... statuses: success, partial, error, timed_out ..."   execute -> {"outcome": {"ok": false, "status": "timed_out", "error": "..."}}`,
			Scope:   "Engine-defined values (outcome statuses, diagnostic codes, entry kinds, risk levels) in successful results of a Language whose closed-sets guide the recording holds whole; the values Part II reserves are left out, and under a manifest of a later minor so are outcome statuses and diagnostic codes, the sets in which that minor may reserve more.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §1.3", Quote: "These fallbacks allow later minor versions to introduce additional reserved values without making earlier Clients unsafe or incompatible.", Fixture: "good-later-minor"},
			},
			Check: checkCallClosedSetUnlisted,
		},
	}
}

// callClosedSetsBodies returns, per Language, the bodies of its
// closed-sets guide that the snapshot holds whole: a fetch without topic,
// or the fetches of every topic the guide lists at one version, joined.
func callClosedSetsBodies(s *snapshot.Snapshot) map[*snapshot.Language][]*source.Node {
	type key struct {
		lang        *snapshot.Language
		id, version string
	}
	topics := map[key][]string{}               // the guide's topics, from any recorded metadata
	parts := map[key]map[string]*source.Node{} // topic fetches
	out := map[*snapshot.Language][]*source.Node{}
	meta := func(l *snapshot.Language, g *source.Node) (key, bool) {
		id, _ := g.Str("id")
		v, _ := g.Str("version")
		k := key{l, id, v}
		if id == "" || !g.Get("topics").IsArray() {
			return k, false
		}
		var ts []string
		closed := false
		for _, t := range g.Get("topics").Kids() {
			if t.IsString() {
				ts = append(ts, t.Text())
				closed = closed || t.Text() == types.ClosedSetsTopic
			}
		}
		if closed {
			topics[k] = ts
		}
		return k, closed
	}
	for _, c := range s.Calls {
		if c.Lang == nil || !c.Succeeded() {
			continue
		}
		switch c.Op {
		case snapshot.OpGuideIndex:
			for _, g := range c.StructuredContent.Get("guides").Objects() {
				meta(c.Lang, g)
			}
		case snapshot.OpGuideFetch:
			g := c.StructuredContent.Get("guide")
			k, closed := meta(c.Lang, g)
			body := g.Get("body")
			if !body.IsString() {
				continue
			}
			if topic := c.Arg("topic"); topic.IsString() {
				if parts[k] == nil {
					parts[k] = map[string]*source.Node{}
				}
				parts[k][topic.Text()] = body
				continue
			}
			// A body shorter than its size_bytes may have been cut; only
			// what is surely whole is judged.
			if size := g.Get("size_bytes"); closed && (size == nil || size.Text() == fmt.Sprint(len(body.Text()))) {
				out[c.Lang] = append(out[c.Lang], body)
			}
		}
	}
	for k, got := range parts {
		ts := topics[k]
		whole := len(ts) > 0
		for _, t := range ts {
			whole = whole && got[t] != nil
		}
		if whole {
			for _, t := range ts {
				out[k.lang] = append(out[k.lang], got[t])
			}
		}
	}
	return out
}

// callEngineValue is one recorded value of an engine-defined set.
type callEngineValue struct {
	set  string
	node *source.Node
}

// reservable reports whether the value's set is one in which Part II
// reserves values (outcome statuses, diagnostic codes), so that a later
// minor may reserve more.
func (v callEngineValue) reservable() bool {
	return v.set != "catalog entry kind" && v.set != "risk level"
}

// callEngineValues returns the engine-defined closed-set values a call
// carries, less those the spec reserves, which need no enumeration.
func callEngineValues(c *snapshot.Call) []callEngineValue {
	var out []callEngineValue
	add := func(set string, n *source.Node) {
		if n.IsString() && n.Text() != "" {
			out = append(out, callEngineValue{set, n})
		}
	}
	status := func(set string, o *source.Node) {
		if st := o.Get("status"); st.IsString() && !types.OutcomeStatus(st.Text()).IsReserved() {
			add(set, st)
		}
	}
	codes := func(ds *source.Node) {
		for _, d := range ds.Objects() {
			switch code, _ := d.Str("code"); code {
			case types.CodeConstraint, types.CodeInputBinding, types.CodeContextBinding:
			default:
				add("diagnostic code", d.Get("code"))
			}
		}
	}
	sc := c.StructuredContent
	switch c.Op {
	case snapshot.OpValidate:
		codes(sc.Get("diagnostics"))
		add("risk level", sc.Path("plan", "max_risk"))
		for _, st := range sc.Path("plan", "steps").Objects() {
			add("risk level", st.Get("risk"))
		}
	case snapshot.OpExecute, snapshot.OpTraceFetch:
		status("run-level outcome status", sc.Get("outcome"))
		if st, _ := sc.Path("outcome", "status").Value().(string); st == string(types.StatusValidationError) {
			codes(sc.Get("diagnostics"))
		}
		for _, st := range sc.Path("trace", "steps").Objects() {
			status("step-level outcome status", st.Get("outcome"))
		}
	case snapshot.OpCatalog:
		for _, e := range c.Entries() {
			// An entry another Language's programs use belongs to that
			// Language's kind set.
			if c.Lang != nil && !callUsableBy(e, c.Lang) {
				continue
			}
			add("catalog entry kind", e.Get("kind"))
			add("risk level", e.Get("risk"))
		}
	}
	return out
}

func checkCallClosedSetUnlisted(p *lint.Pass) {
	bodies := callClosedSetsBodies(p.Snap)
	later := rulekit.Of(p.Snap).LaterMinor()
	reported := map[string]bool{}
	for _, c := range p.Snap.Calls {
		guide := bodies[c.Lang]
		if len(guide) == 0 || !c.Succeeded() {
			continue
		}
		for _, v := range callEngineValues(c) {
			// A later minor may reserve more statuses and codes (Part II
			// §1.3, §11.1), which no closed-sets guide enumerates; entry
			// kinds and risk levels have no reserved values to add to.
			if later && v.reservable() {
				continue
			}
			key := c.Lang.Name + "\x00" + v.set + "\x00" + v.node.Text()
			if reported[key] || callMentioned(guide, v.node.Text()) {
				continue
			}
			reported[key] = true
			p.With(lint.Also{Node: guide[0], Note: "the body of the closed-sets guide"}).Report(v.node, "%s %q occurs nowhere in the closed-sets guide of %s, which the snapshot holds whole: enumerate every engine-defined %s in that guide, or use a value it lists", v.set, v.node.Text(), c.Lang.Label(), v.set)
		}
	}
}

// callMentioned reports whether value occurs in any of the bodies,
// ignoring case and Markdown's backslash escapes (timed\_out is how a
// Markdown author may write timed_out): occurring is less than being
// enumerated, so a miss is certain and a hit proves nothing either way.
func callMentioned(bodies []*source.Node, value string) bool {
	v := strings.ToLower(value)
	for _, b := range bodies {
		text := strings.ToLower(b.Text())
		if strings.Contains(text, v) || strings.Contains(strings.ReplaceAll(text, "\\", ""), v) {
			return true
		}
	}
	return false
}
