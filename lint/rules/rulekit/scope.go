package rulekit

import (
	"reflect"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// A call's Language is its snapshot view's Lang: the Language of the
// program-bearing argument it carries, the language argument of the fixed
// tools, or the one Language a loop tool serves. Rules compare calls of one
// Language unless they say why another's answer bears on it.

// TracePrefix returns the sub-program prefix of a trace entry identifier:
// the calling entry's identifier before the final "/" (Part II §5.8.2
// Expansion), with ok true; ok is false for an entry of the Run's own
// program, whose identifier has no "/".
func TracePrefix(id string) (prefix string, ok bool) {
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		return id[:i], true
	}
	return "", false
}

// Unprefixed returns the trace entries that take part in plan
// correspondence: those whose identifier is a non-empty string without a
// sub-program prefix (an empty one names no plan step). Part II §5.8.4:
// correspondence "is evaluated only over unprefixed trace entries", and
// §5.8.3: "Internal expanded entries do not have corresponding steps in
// the caller's plan."
func Unprefixed(steps []*source.Node) []*source.Node {
	var out []*source.Node
	for _, s := range steps {
		id, ok := s.Str("id")
		if _, prefixed := TracePrefix(id); ok && id != "" && !prefixed {
			out = append(out, s)
		}
	}
	return out
}

// LaterMinor reports whether the manifest (authoritative or inline)
// declares a later minor version of Pilotage 1 than 1.1. What a later
// minor adds (OPTIONAL fields, sub-features, reserved values, Part II
// §11.1) is not judged. It is the one answer for every rule judging tools,
// calls, results or probe answers; DeclaresLaterMinor reads one manifest
// document, for the rules judging that document.
func (m *Model) LaterMinor() bool { return m.laterMinor }

// Extended reports whether c may rely on something a later minor version
// added, which 1.1 cannot judge: the manifest declares a later minor, and
// the request carries a member 1.1 does not define for its operation, or
// the call's Language entry carries a member, capability or sub-feature
// 1.1 does not define. Such a call is not judged for what its request
// members make the Server do.
func (m *Model) Extended(c *snapshot.Call) bool { return m.extended[c] }

// requestMembers are the request members Part II and Part III §4 define
// for each operation, besides a loop tool's program-bearing arguments.
var requestMembers = func() map[snapshot.Op]map[string]bool {
	out := map[snapshot.Op]map[string]bool{
		snapshot.OpGuideIndex: {"language": true, "id": true, "topic": true},
		snapshot.OpGuideFetch: {"language": true, "id": true, "topic": true},
		snapshot.OpCatalog:    {"language": true, "verb": true, "kind": true, "tag": true, "q": true, "cursor": true, "limit": true, "id": true, "catalog_version": true},
		snapshot.OpValidate:   {},
		snapshot.OpExecute:    {},
		snapshot.OpTraceFetch: {},
	}
	stages := map[types.Stage]snapshot.Op{types.StageValidate: snapshot.OpValidate, types.StageExecute: snapshot.OpExecute, types.StageTraceFetch: snapshot.OpTraceFetch}
	for _, a := range types.ReservedArgs {
		for _, st := range a.Stages {
			out[stages[st]][a.Name] = true
		}
	}
	return out
}()

// languageMembers are the Language-entry members 1.1 defines (Part II
// §5.1, with Part III's resource members), read from the canonical type.
var languageMembers = func() map[string]bool {
	out := map[string]bool{}
	t := reflect.TypeFor[types.Language]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		out[name] = true
	}
	return out
}()

func (m *Model) findExtended(s *snapshot.Snapshot) {
	m.extended = map[*snapshot.Call]bool{}
	if !m.laterMinor {
		return
	}
	langExtended := map[*snapshot.Language]bool{}
	for _, l := range s.Languages {
		langExtended[l] = extendedLanguage(l)
	}
	for _, c := range m.calls {
		known := requestMembers[c.Op]
		if known == nil {
			continue
		}
		programs := map[string]bool{}
		for _, pr := range ProgramBindings(s.Tool(c.Name).ProgramDeclaration()) {
			if a, ok := pr.Str("argument"); ok {
				programs[a] = true
			}
		}
		ext := langExtended[c.Lang]
		for _, a := range c.Arguments.Items() {
			ext = ext || !known[a.Key()] && !programs[a.Key()]
		}
		m.extended[c] = ext
	}
}

// extendedLanguage reports whether a Language entry carries a member, a
// capability or a sub-feature (at its own level or the Server's) that 1.1
// does not define.
func extendedLanguage(l *snapshot.Language) bool {
	for _, k := range l.Node.Items() {
		if !languageMembers[k.Key()] {
			return true
		}
	}
	for _, decl := range []*source.Node{l.Caps.Server, l.Caps.Lang} {
		for _, c := range decl.Items() {
			name := types.CapabilityName(c.Key())
			if !name.IsKnown() {
				return true
			}
			for _, sub := range c.Items() {
				if c.IsObject() && !types.IsKnownSubFeature(name, sub.Key()) {
					return true
				}
			}
		}
	}
	return false
}
