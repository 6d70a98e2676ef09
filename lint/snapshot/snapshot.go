// Package snapshot finds a server's Pilotage surfaces in parsed inputs: the
// initialize or server/discover result, the tool list, the manifest, the
// resources and recorded tool calls, whatever form the input takes.
package snapshot

import (
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// Kind names an input form.
type Kind string

// The input kinds pilotage-lint recognizes (see README, "Inputs").
const (
	KindManifest   Kind = "manifest"    // bare manifest (structuredContent)
	KindCallResult Kind = "call-result" // pilotage_manifest CallToolResult
	KindToolsList  Kind = "tools-list"  // {"tools": [...]}
	KindTools      Kind = "tools"       // bare array of tools
	KindInitialize Kind = "initialize"  // InitializeResult
	KindDiscover   Kind = "discover"    // server/discover result
	KindJSONRPC    Kind = "jsonrpc"     // one JSON-RPC response
	KindCapture    Kind = "capture"     // array or JSON Lines of JSON-RPC messages
	KindSnapshot   Kind = "snapshot"    // pilotage-lint snapshot document
	KindUnknown    Kind = "unknown"
)

// Kinds lists the kinds --input-kind accepts.
var Kinds = []Kind{KindManifest, KindCallResult, KindToolsList, KindTools, KindInitialize, KindDiscover, KindJSONRPC, KindCapture, KindSnapshot}

// Snapshot is everything known about one server. Every node points into a
// parsed file, so rules report exact positions. A surface the input did not
// carry is nil.
type Snapshot struct {
	// Files are the inputs this snapshot was built from: one, or two when a
	// manifest is given with --manifest.
	Files []*source.File
	// Kind is the form of the main input.
	Kind Kind

	// Initialize is the InitializeResult object.
	Initialize *source.Node
	// Discover is the server/discover result object (revision 2026-07-28).
	Discover *source.Node
	// ToolsArray is the array of Tool objects from tools/list (for a paged
	// capture, the first page; Tools holds all of them).
	ToolsArray *source.Node
	Tools      []*Tool
	// ManifestResult is the pilotage_manifest CallToolResult, when the input
	// carried one rather than the bare manifest.
	ManifestResult *source.Node
	// Manifest is the manifest object (the structuredContent of
	// pilotage_manifest).
	Manifest *source.Node
	// InlineManifest is the manifest carried in the initialize or discover
	// result's _meta (Part III §3.2). When no pilotage_manifest result is in
	// the input, Manifest is this same node.
	InlineManifest *source.Node
	// Resources is the resources/list result object.
	Resources *source.Node
	// Calls are recorded tools/call exchanges other than pilotage_manifest.
	Calls []*Call
	// Revision is the MCP protocol revision the input shows, or "".
	Revision string

	// Languages are the manifest's Language entries with their effective
	// capability maps, computed once here for every rule.
	Languages []*Language
	// InlineLanguages are the inline manifest's, when it is not Manifest:
	// a Client may read either (Part III §3.3), so rules judge both.
	InlineLanguages []*Language

	// The views below are filled by Build and never written after it.
	roots      map[*source.Node]*source.File
	toolIndex  map[string]*Tool
	metas      []*source.Node
	extensions []*source.Node
	loops      []*LoopTool
	loopsDone  bool
	signal     bool
	// manifestCalled says ManifestResult is known to be pilotage_manifest's
	// answer (a snapshot's manifest member, a recorded call of that name,
	// --manifest, a forced kind), not merely a result of its shape.
	manifestCalled bool
}

// Tool is one entry of tools/list.
type Tool struct {
	Node        *source.Node
	Name        string
	Description *source.Node
	InputSchema *source.Node
	// OutputSchema is nil when the tool declares none.
	OutputSchema *source.Node
	Annotations  *source.Node
	Meta         *source.Node
}

// Call is one recorded tools/call: its name, arguments and result.
type Call struct {
	Node      *source.Node
	Name      string
	Arguments *source.Node
	// Result is the CallToolResult; nil when the call drew a JSON-RPC error.
	Result *source.Node
	// Error is the JSON-RPC error object, when the call drew one.
	Error *source.Node
	// Probe is the tag of a call probe mode made on purpose, or nil.
	Probe *Probe
	// CallView is what the call means, computed in Build (calls.go).
	CallView
}

// Stateless reports whether the snapshot comes from the stateless MCP
// revision: it says 2026-07-28, or it has a discover result and no
// initialize result.
func (s *Snapshot) Stateless() bool {
	if s.Revision != "" {
		return s.Revision == types.RevisionStateless
	}
	return s.Discover != nil && s.Initialize == nil
}

// FileOf returns the file a node was parsed from.
func (s *Snapshot) FileOf(n *source.Node) *source.File {
	return s.roots[n.Root()]
}

// Tool returns the tool named name, or nil; with duplicate names, the first.
func (s *Snapshot) Tool(name string) *Tool {
	return s.toolIndex[name]
}

// Language returns the Language entry named name, or nil.
func (s *Snapshot) Language(name string) *Language {
	for _, l := range s.Languages {
		if l.Name == name {
			return l
		}
	}
	return nil
}

// Metas returns every "_meta" object in the snapshot's documents, in
// document order.
func (s *Snapshot) Metas() []*source.Node {
	return s.metas
}

// ExtensionMaps returns every MCP "extensions" capability map in the
// snapshot's documents, in document order: under a "capabilities" member
// (initialize and discover results, a Client's initialize request in a
// capture) and under the stateless revision's per-request
// client-capabilities _meta key.
func (s *Snapshot) ExtensionMaps() []*source.Node {
	return s.extensions
}

// walk visits every value of every document once, during Build, for all
// the collections rules ask for, however many rules ask.
func (s *Snapshot) walk() {
	var visit func(n *source.Node)
	visit = func(n *source.Node) {
		if n.Kind != source.Object && n.Kind != source.Array {
			return
		}
		if n.Kind == source.Object && n.Parent != nil && n.Parent.Kind == source.Object &&
			(n.Key() == "capabilities" || n.Key() == types.ClientCapabilitiesMetaKey) {
			if ext := n.Get("extensions"); ext.IsObject() {
				s.extensions = append(s.extensions, ext)
			}
		}
		for _, k := range n.Kids() {
			if k.Kind == source.Object && n.Kind == source.Object && k.Key() == "_meta" {
				s.metas = append(s.metas, k)
			}
			visit(k)
		}
	}
	for _, f := range s.Files {
		for _, d := range f.Docs {
			visit(d.Root)
		}
	}
}
