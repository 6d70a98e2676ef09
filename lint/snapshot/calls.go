package snapshot

import (
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// Op is the Pilotage operation a recorded call performed (Part II §6).
type Op string

// The operations a recorded call is classified as. OpOther is any other
// tool call: the server's own tools, and pilotage_manifest.
const (
	OpOther      Op = ""
	OpGuideIndex Op = "guide-index"
	OpGuideFetch Op = "guide-fetch"
	OpCatalog    Op = "catalog"
	OpValidate   Op = "validate"
	OpExecute    Op = "execute"
	OpTraceFetch Op = "trace-fetch"
)

// Channel is the Part II error channel a response travelled on (Part III
// §7.1).
type Channel string

// The channels of a recorded response.
const (
	// ChannelNone: the call has neither a result nor a JSON-RPC error.
	ChannelNone Channel = ""
	// ChannelCarrier: a JSON-RPC error response.
	ChannelCarrier Channel = "carrier"
	// ChannelRequestError: a CallToolResult with isError true, or one
	// whose structuredContent carries the request-error object.
	ChannelRequestError Channel = "request-error"
	// ChannelResult: a CallToolResult carrying the operation's answer
	// (diagnostics, an outcome, a guide, catalog items).
	ChannelResult Channel = "result"
)

// Probe is the tag probe mode puts on a call it made on purpose.
type Probe struct {
	Node *source.Node
	// Name is the probe's id.
	Name string
	// Vector is the official conformance vector the probe replays, or "".
	Vector string
	// Defect names the one deliberate fault of the request, or "" for a
	// well-formed request.
	Defect string
	// Language is the Language the probe addressed, or "" for a probe of
	// the server as a whole.
	Language string
}

// CallView is what a recorded call means: which operation, for which
// Language, with which runnable, answered on which channel. Build computes
// it once, so every rule reads the request and the response side by side
// the same way.
type CallView struct {
	Op Op
	// Verb is the catalog verb of an OpCatalog call, as sent.
	Verb string
	// Lang is the Language addressed, when it can be told.
	Lang *Language
	// ProgramArg names the program-bearing argument present, and Program
	// is its value; Programs counts the program-bearing arguments the
	// request carries (a shared tool declares several).
	ProgramArg string
	Program    *source.Node
	Programs   int
	// Channel is how the server answered.
	Channel Channel
	// StructuredContent is the result's structuredContent, or nil.
	StructuredContent *source.Node
	// ErrorKind is the request-error kind, when the answer is one.
	ErrorKind string
}

// Arg returns the request argument name, or nil.
func (c *Call) Arg(name string) *source.Node {
	if !c.Arguments.IsObject() {
		return nil
	}
	return c.Arguments.Get(name)
}

// Succeeded reports whether the call was answered on the result channel.
func (c *Call) Succeeded() bool { return c.Channel == ChannelResult }

// Entries returns the catalog entries a successful catalog call returned:
// the objects of a list's items, and a get's entry.
func (c *Call) Entries() []*source.Node {
	if c.Op != OpCatalog || !c.Succeeded() {
		return nil
	}
	out := c.StructuredContent.Get("items").Objects()
	if e := c.StructuredContent.Get("entry"); e.IsObject() {
		out = append(out, e)
	}
	return out
}

// CallsOf returns the classified recorded calls performing op, in order.
func (s *Snapshot) CallsOf(op Op) []*Call {
	var out []*Call
	for _, c := range s.Calls {
		if c.Op == op {
			out = append(out, c)
		}
	}
	return out
}

func parseProbe(n *source.Node) *Probe {
	if !n.IsObject() {
		return nil
	}
	p := &Probe{Node: n}
	p.Name, _ = n.Str("name")
	p.Vector, _ = n.Str("vector")
	p.Defect, _ = n.Str("defect")
	p.Language, _ = n.Str("language")
	return p
}

// classifyCalls fills every call's view. The tool name decides for the
// fixed tools and the loop tools; a tool the manifest does not name is
// classified by the shape of its structuredContent, so a capture without
// a manifest is still judged.
func (s *Snapshot) classifyCalls() {
	stages := map[string]*LoopTool{}
	for _, lt := range s.LoopTools() {
		stages[lt.Name] = lt
	}
	for _, c := range s.Calls {
		v := CallView{StructuredContent: c.Result.Get("structuredContent")}
		switch {
		case c.Error != nil:
			v.Channel = ChannelCarrier
		case c.Result.IsObject():
			isErr := c.Result.Get("isError")
			if isErr.IsBool() && isErr.Truth() || v.StructuredContent.Get("error").IsObject() {
				v.Channel = ChannelRequestError
				v.ErrorKind, _ = v.StructuredContent.Path("error").Str("kind")
			} else {
				v.Channel = ChannelResult
			}
		}
		lt := stages[c.Name]
		switch {
		case c.Name == types.ToolManifest:
			v.Op = OpOther
		case c.Name == types.ToolGetGuide:
			v.Op = OpGuideIndex
			if c.Arg("id") != nil {
				v.Op = OpGuideFetch
			}
		case c.Name == types.ToolCatalog:
			v.Op = OpCatalog
			v.Verb, _ = c.Arguments.Str("verb")
		case lt != nil:
			// A tool serving two stages is a defect of its own; its
			// calls cannot be told apart, so they are no loop calls.
			if st, ok := lt.Stage(); ok {
				v.Op = stageOps[st]
			}
		default:
			v.Op = opByShape(c, v.StructuredContent)
		}
		c.CallView = v
		s.callLanguage(c, lt)
	}
}

var stageOps = map[types.Stage]Op{types.StageValidate: OpValidate, types.StageExecute: OpExecute, types.StageTraceFetch: OpTraceFetch}

func opByShape(c *Call, sc *source.Node) Op {
	switch {
	case sc.Get("valid").IsBool():
		return OpValidate
	case sc.Get("outcome").IsObject() && c.Arg(types.ArgRunID) != nil:
		return OpTraceFetch
	case sc.Get("outcome").IsObject():
		return OpExecute
	case sc.Get("guides").IsArray():
		return OpGuideIndex
	case sc.Get("guide").IsObject():
		return OpGuideFetch
	}
	return OpOther
}

// callLanguage finds the Language of a call: the "language" argument of
// the fixed tools; for a loop tool the program-bearing argument present,
// or the only Language the tool serves.
func (s *Snapshot) callLanguage(c *Call, lt *LoopTool) {
	switch c.Op {
	case OpOther:
		return
	case OpGuideIndex, OpGuideFetch, OpCatalog:
		if name, ok := c.Arguments.Str("language"); ok {
			c.Lang = s.Language(name)
		}
		return
	}
	if decl := s.Tool(c.Name).ProgramDeclaration(); decl != nil {
		pairs := []*source.Node{decl}
		if ls := decl.Get("languages"); ls.IsArray() {
			pairs = ls.Kids()
		}
		for _, pr := range pairs {
			arg, _ := pr.Str("argument")
			// A member sent as null is read as absent, as Clients send
			// either for "not given".
			if v := c.Arg(arg); arg != "" && v != nil && !v.IsNull() {
				c.Programs++
				if c.Program == nil {
					lang, _ := pr.Str("language")
					c.Lang, c.ProgramArg, c.Program = s.Language(lang), arg, v
				}
			}
		}
		if c.Lang != nil {
			return
		}
	}
	if lt != nil {
		for _, ls := range lt.Stages {
			if len(ls) == 1 {
				c.Lang = ls[0]
				return
			}
		}
	}
	if len(s.Languages) == 1 {
		c.Lang = s.Languages[0]
	}
}
