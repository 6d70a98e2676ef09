package snapshot

import (
	"strings"

	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// Pilotage reports whether the snapshot carries a Pilotage signal: a
// pilotage_manifest tool or any other reserved pilotage_* tool name (listed
// or called), a manifest or pilotage_manifest result, the extension
// identifier (current or legacy) as a member of a capabilities, extensions
// or _meta object, or the pilotage://manifest resource. Pilotage's duties
// bind only a Server that implements Pilotage, so a file without a signal
// is not judged: an ordinary MCP server is not a non-conformant one.
//
// Text that did not parse cleanly may have no values to look at; its signal
// is the word "pilotage" anywhere in the text, so a broken Pilotage document
// still gets its syntax findings and an unrelated non-JSON file gets none.
func (s *Snapshot) Pilotage() bool { return s.signal }

func (s *Snapshot) findSignal() bool {
	if s.Manifest != nil || s.InlineManifest != nil {
		return true
	}
	if s.ManifestResult != nil && !s.unlistedError(types.ToolManifest, nil, s.ManifestResult) {
		return true
	}
	for _, t := range s.Tools {
		if strings.HasPrefix(t.Name, types.ReservedToolPrefix) {
			return true
		}
	}
	for _, c := range s.Calls {
		// A probe's requests are made up on purpose (an unknown tool, odd
		// ids), so they say nothing about the server; what it answered
		// is judged only once something else shows Pilotage.
		if c.Probe != nil {
			continue
		}
		if strings.HasPrefix(c.Name, types.ReservedToolPrefix) && !s.unlistedError(c.Name, c.Error, c.Result) {
			return true
		}
	}
	for _, m := range s.Metas() {
		if hasExtensionKey(m) {
			return true
		}
	}
	for _, e := range s.ExtensionMaps() {
		if hasExtensionKey(e) {
			return true
		}
	}
	for _, r := range s.Resources.Get("resources").Items() {
		if uri, _ := r.Str("uri"); uri == types.ManifestURI {
			return true
		}
	}
	for _, f := range s.Files {
		if broken(f) && strings.Contains(strings.ToLower(f.Data), "pilotage") {
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

// unlistedError reports whether a recorded call of tool name drew an error
// (a JSON-RPC error, or a result with isError true) while the recorded
// listing does not contain the tool: any MCP server answers so for a tool
// it lacks, so that is no Pilotage signal. Snapshots written by earlier
// versions of snapshot, which called pilotage_manifest on every server and
// stored the "unknown tool" answer under "manifest", so lint silent.
func (s *Snapshot) unlistedError(name string, rpcErr, result *source.Node) bool {
	if s.ToolsArray == nil || s.Tool(name) != nil {
		return false
	}
	if rpcErr != nil {
		return true
	}
	ie := result.Get("isError")
	return ie.IsBool() && ie.Truth()
}

// hasExtensionKey reports whether object n has a member named by the
// extension identifier, its legacy spelling or the _meta shorthand.
func hasExtensionKey(n *source.Node) bool {
	return n.Has(types.ExtensionID) || n.Has(types.LegacyExtensionID) || n.Has(types.ShorthandMetaKey)
}

// capabilitiesSignal finds the identifier directly inside a capabilities
// object (or its experimental map), where some Servers announce extensions
// before the extensions map existed.
func capabilitiesSignal(n *source.Node) bool {
	if n.Kind != source.Object && n.Kind != source.Array {
		return false
	}
	for _, k := range n.Kids() {
		if k.Kind == source.Object && n.Kind == source.Object && k.Key() == "capabilities" {
			if k.Has(types.ExtensionID) || k.Has(types.LegacyExtensionID) || hasExtensionKey(k.Get("experimental")) {
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
