package rulekit

import (
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// Op is the Pilotage operation a recorded call performed.
type Op int

// The operations; OpOther is a call no rule of Part II's loop judges.
const (
	OpOther Op = iota
	OpGuideIndex
	OpGuideFetch
	OpCatalog
	OpValidate
	OpExecute
	OpTraceFetch
)

// Result is one recorded call with what the rules need to know about
// it.
type Result struct {
	*snapshot.Call
	Op Op
	// Content is the structuredContent; nil when absent.
	Content *source.Node
	// RequestError is true for a result carrying the §7.2 request-error
	// shape (an "error" object at the top of structuredContent).
	RequestError bool
	// Lang is the Language the call addressed, when it can be told.
	Lang *snapshot.Language
	// Program is the program argument of a validate or execute call.
	Program *source.Node
}

// Listed reports whether a recorded answer for tool name is a listed
// tool's: the recorded tools/list carries the tool, or the recording holds
// no listing to tell. Part III §4: "All Pilotage tools: appear in
// tools/list"; an answer for a name a recorded listing lacks (an SDK's
// isError text for an unknown pilotage_catalog on a server without a
// catalog) is no Pilotage tool's answer, so no rule judges its shape. An
// empty listing is a listing, of no tool.
func Listed(s *snapshot.Snapshot, name string) bool {
	return s.ToolsArray == nil || s.Tool(name) != nil
}

// Results classifies the recorded calls. The tool name decides for the
// fixed tools and the manifest's loop tools; otherwise the shape of the
// structuredContent does, so a capture without a manifest is still
// checked. pilotage_manifest and calls that drew a JSON-RPC error are left
// out: the manifest has its own rules, and a carrier error has no result.
func Results(s *snapshot.Snapshot) []*Result {
	if len(s.Calls) == 0 {
		// A listing holds no call; its loop tools are no reason to build
		// the map below for each of the rules that ask (a 10,000-tool
		// listing: 2 MB of its peak RSS).
		return nil
	}
	stages := map[string]*snapshot.LoopTool{}
	for _, lt := range s.LoopTools() {
		stages[lt.Name] = lt
	}
	var out []*Result
	for _, c := range s.Calls {
		if c.Name == types.ToolManifest || !c.Result.IsObject() {
			continue
		}
		rc := &Result{Call: c, Content: c.Result.Get("structuredContent")}
		rc.RequestError = rc.Content.Get("error").IsObject()
		lt := stages[c.Name]
		switch {
		case c.Name == types.ToolGetGuide:
			rc.Op = OpGuideIndex
			if c.Arguments.Has("id") {
				rc.Op = OpGuideFetch
			}
		case c.Name == types.ToolCatalog:
			rc.Op = OpCatalog
		case lt != nil && lt.Serves(types.StageValidate) && len(lt.Stages) == 1:
			rc.Op = OpValidate
		case lt != nil && lt.Serves(types.StageExecute) && len(lt.Stages) == 1:
			rc.Op = OpExecute
		case lt != nil && lt.Serves(types.StageTraceFetch) && len(lt.Stages) == 1:
			rc.Op = OpTraceFetch
		case lt == nil:
			rc.Op = opByShape(rc)
		}
		if rc.Op == OpOther {
			continue
		}
		rc.Lang, rc.Program = language(s, rc, s.Tool(c.Name), lt)
		out = append(out, rc)
	}
	return out
}

func opByShape(rc *Result) Op {
	sc := rc.Content
	switch {
	case sc.Get("valid").IsBool():
		return OpValidate
	case sc.Get("outcome").IsObject() && rc.Arguments.Has(types.ArgRunID):
		return OpTraceFetch
	case sc.Get("outcome").IsObject():
		return OpExecute
	case sc.Get("guides").IsArray():
		return OpGuideIndex
	case sc.Get("guide").IsObject():
		return OpGuideFetch
	case sc.Has("items") || sc.Has("entry") || sc.Has("changes"):
		return OpCatalog
	}
	return OpOther
}

// language finds the Language of a call: the "language" argument of
// the fixed tools, or the program argument present in a loop tool call, or
// the only Language a loop tool serves.
func language(s *snapshot.Snapshot, rc *Result, t *snapshot.Tool, lt *snapshot.LoopTool) (*snapshot.Language, *source.Node) {
	if name, ok := rc.Arguments.Str("language"); ok && (rc.Op == OpGuideIndex || rc.Op == OpGuideFetch || rc.Op == OpCatalog) {
		return s.Language(name), nil
	}
	if decl := t.ProgramDeclaration(); decl != nil {
		pairs := []*source.Node{decl}
		if ls := decl.Get("languages"); ls.IsArray() {
			pairs = ls.Kids()
		}
		for _, pr := range pairs {
			arg, _ := pr.Str("argument")
			lang, _ := pr.Str("language")
			if v := rc.Arguments.Get(arg); arg != "" && v != nil {
				return s.Language(lang), v
			}
		}
	}
	if lt != nil {
		for _, ls := range lt.Stages {
			if len(ls) == 1 {
				return ls[0], nil
			}
		}
	}
	if len(s.Languages) == 1 {
		return s.Languages[0], nil
	}
	return nil, nil
}

// True reports whether n is the JSON literal true; a missing member, a
// string "true" or any other value is not.
func True(n *source.Node) bool { return n.IsBool() && n.Truth() }

// Entries returns the catalog entries of recorded list and get
// results.
func Entries(calls []*Result) []*source.Node {
	var out []*source.Node
	for _, rc := range calls {
		if rc.Op != OpCatalog || rc.RequestError {
			continue
		}
		out = append(out, rc.Content.Get("items").Objects()...)
		if e := rc.Content.Get("entry"); e.IsObject() {
			out = append(out, e)
		}
	}
	return out
}
