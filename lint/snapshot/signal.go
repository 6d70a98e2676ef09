package snapshot

import (
	"regexp"
	"slices"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// Pilotage reports whether the snapshot carries a Pilotage signal, one of
// the three things that name the extension itself (issue 30 §4):
//
//   - the extension identifier, current or legacy, as a member of a
//     capabilities, extensions or _meta object;
//   - a manifest: the input is one, or holds one (see ManifestLike), or
//     records a pilotage_manifest result of a listed tool;
//   - one of the exact fixed names of Part III §3–4 (pilotage_manifest,
//     pilotage_get_guide, pilotage_catalog) in the tool listing, or a
//     recorded answer of one when the listing has it or there is no listing;
//     pilotage_manifest's name not when its recorded answer shows it is no
//     Pilotage manifest tool and nothing else signals Pilotage (see
//     ManifestDisproved: a harbour pilot's cargo manifest tool).
//
// Any other name is no signal: "pilotage" is a French and Dutch word, so a
// fleet server's pilotage_flotte tool, a "pilotage" _meta key or a
// pilotage:// resource says nothing, and Part III §1.3 forbids inferring
// the extension from similar names. Neither is an answer recorded for a
// tool the listing lacks, error or not: it says what a server does with a
// name it does not have. Pilotage's duties bind only a Server that
// implements Pilotage, so a file without a signal is not judged: an
// ordinary MCP server is not a non-conformant one.
//
// Text that did not parse cleanly may have no values to look at; its signal
// is one of the same names in the text, so a broken Pilotage document still
// gets its syntax findings and an unrelated broken file gets none.
func (s *Snapshot) Pilotage() bool { return s.signal }

func (s *Snapshot) findSignal() bool {
	if s.Kind == KindManifest || s.InlineManifest != nil || ManifestLike(s.Manifest) {
		return true
	}
	// pilotage_manifest's name is a signal unless its recorded answer
	// shows the tool is something else; the other fixed names always are.
	byName := false
	if s.ManifestResult != nil && s.manifestCalled && (s.ToolsArray == nil || s.Tool(types.ToolManifest) != nil) {
		byName = true
	}
	for _, t := range s.Tools {
		if t.Name == types.ToolManifest {
			byName = true
		} else if IsFixedTool(t.Name) {
			return true
		}
	}
	for _, c := range s.Calls {
		// A probe's requests are made up on purpose (an unknown tool, odd
		// ids), so they say nothing about the server; what it answered
		// is judged only once something else shows Pilotage.
		if c.Probe != nil || !IsFixedTool(c.Name) {
			continue
		}
		if s.ToolsArray != nil && s.Tool(c.Name) != nil || s.ToolsArray == nil && !errorAnswer(c.Error, c.Result) {
			if c.Name != types.ToolManifest {
				return true
			}
			byName = true
		}
	}
	if s.otherSignal() {
		return true
	}
	return byName && !s.ManifestDisproved()
}

// ManifestDisproved reports whether the recorded answer of a tool named
// pilotage_manifest shows it is not Pilotage's: a successful result (not
// isError) whose structuredContent is absent or is no manifest (see
// ManifestLike; a cargo manifest with "languages" as a list of locale
// codes is none). Part III §1.2: a Server declares Pilotage support by
// exposing pilotage_manifest "and" returning a valid Pilotage manifest;
// §1.3 item 4: a Client that finds neither a Pilotage extension
// declaration "nor a validly answering `pilotage_manifest` tool MUST NOT
// infer Pilotage semantics from tools with similar names". A defective
// Pilotage manifest (a missing version, a wrong type) is still
// manifest-like and is judged; an error answer shows nothing either way.
func (s *Snapshot) ManifestDisproved() bool {
	mr := s.ManifestResult
	if mr == nil || !s.manifestCalled || errorAnswer(nil, mr) {
		return false
	}
	return !ManifestLike(mr.Get("structuredContent"))
}

// otherSignal finds the signals other than the fixed tool names: the
// extension identifier in what the Server sent, or text that did not parse
// but holds one of the names.
func (s *Snapshot) otherSignal() bool {
	for _, m := range s.Metas() {
		if hasExtensionKey(m) && !ClientSent(m) {
			return true
		}
	}
	for _, e := range s.ExtensionMaps() {
		if hasExtensionKey(e) && !ClientSent(e) {
			return true
		}
	}
	for _, f := range s.Files {
		if broken(f) && brokenSignal.MatchString(f.Data) {
			return true
		}
		for _, d := range f.Docs {
			if capabilitiesSignal(d.Root) {
				return true
			}
		}
	}
	return false
}

// IsFixedTool reports whether name is one of the fixed-name access tools
// of Part III §4, exactly: the only tool names that are a Pilotage signal.
func IsFixedTool(name string) bool { return slices.Contains(types.FixedTools, name) }

// errorAnswer reports whether a recorded call drew an error: a JSON-RPC
// error, or a result with isError true. Any MCP server answers so for a
// tool it lacks.
func errorAnswer(rpcErr, result *source.Node) bool {
	if rpcErr != nil {
		return true
	}
	ie := result.Get("isError")
	return ie.IsBool() && ie.Truth()
}

// ClientSent reports whether n sits in the params of a message the Client
// sends (a request or notification of a Client method): a capture records
// what the Client declared too, and a Client implementing Pilotage says
// nothing about the Server. Messages the Server sends (a log notification,
// a sampling request) still speak for it.
func ClientSent(n *source.Node) bool {
	for ; n.Parent != nil; n = n.Parent {
		if n.Parent.IsObject() && n.Key() == "params" && n.Parent.Has("jsonrpc") {
			method, _ := n.Parent.Str("method")
			return clientMethod(method)
		}
	}
	return false
}

// clientMethod reports whether an MCP method is one a Client sends.
func clientMethod(m string) bool {
	switch m {
	case "initialize", "server/discover", "notifications/initialized", "notifications/roots/list_changed":
		return true
	}
	for _, p := range []string{"tools/", "resources/", "prompts/", "completion/", "logging/"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}

// brokenSignal finds, in text that does not parse, what would be a signal
// in parsed text: the identifier (either spelling), a fixed tool name as a
// whole word, or a manifest's version member.
var brokenSignal = regexp.MustCompile(`io\.github\.jafarsa0[./]pilotage\b|\bpilotage_(manifest|get_guide|catalog)\b|"pilotage"\s*:\s*"\d`)

// hasExtensionKey reports whether object n has a member named by the
// extension identifier or its legacy spelling. The shorthand "pilotage" is
// no signal: receivers MUST NOT read it as Pilotage metadata (Part III §2),
// and it is an ordinary French or Dutch word.
func hasExtensionKey(n *source.Node) bool {
	return n.Has(types.ExtensionID) || n.Has(types.LegacyExtensionID)
}

// capabilitiesSignal finds the identifier directly inside a capabilities
// object (or its experimental map), where some Servers announce extensions
// before the extensions map existed.
func capabilitiesSignal(n *source.Node) bool {
	if n.Kind != source.Object && n.Kind != source.Array {
		return false
	}
	for _, k := range n.Kids() {
		if k.Kind == source.Object && n.Kind == source.Object && k.Key() == "capabilities" && !ClientSent(k) {
			if hasExtensionKey(k) || hasExtensionKey(k.Get("experimental")) {
				return true
			}
		}
		if capabilitiesSignal(k) {
			return true
		}
	}
	return false
}

// broken reports whether f holds text that did not parse as JSON, or
// parsed only with a problem the text rules report: its values may be
// incomplete, so the text itself is searched.
func broken(f *source.File) bool {
	return len(f.Problems) > 0 || len(f.Docs) == 0
}

// ClientDeclaredPilotage reports whether the Client that made the recording
// is known to have declared Pilotage: the input records its declaration (an
// initialize request, or the stateless per-request capabilities), or it is
// a snapshot document, which pilotage-lint snapshot records as a Client
// declaring the extension (Part III §1.2). A Server MAY hide its Pilotage
// tools from a Client that did not declare Pilotage (Part III §1.3), so a
// listing without them proves nothing unless this holds.
func (s *Snapshot) ClientDeclaredPilotage() bool {
	if s.Kind == KindSnapshot {
		return true
	}
	for _, e := range s.ExtensionMaps() {
		if ClientSent(e) && e.Has(types.ExtensionID) {
			return true
		}
	}
	return false
}

// PilotageToolsListed reports whether the tool listing shows any Pilotage
// tool: a fixed-name access tool, a loop tool the manifest names, or a tool
// carrying a program declaration.
func (s *Snapshot) PilotageToolsListed() bool {
	for _, t := range s.Tools {
		if IsFixedTool(t.Name) || t.ProgramDeclaration() != nil {
			return true
		}
	}
	for _, lt := range s.LoopTools() {
		if lt.Tool != nil {
			return true
		}
	}
	return false
}

// ToolsMayBeHidden reports whether the listing lacks every Pilotage tool
// while nothing shows the recording Client declared Pilotage: the Server
// MAY have hidden them from that Client (Part III §1.3), so no rule can say
// a tool is missing.
func (s *Snapshot) ToolsMayBeHidden() bool {
	return s.ToolsArray != nil && !s.PilotageToolsListed() && !s.ClientDeclaredPilotage()
}

// Blank reports whether every file of the snapshot is empty or white space:
// such an input can carry no signal, and saying it is empty is no claim
// about a server.
func (s *Snapshot) Blank() bool {
	for _, f := range s.Files {
		if strings.TrimSpace(f.Data) != "" {
			return false
		}
	}
	return true
}
