package types

import "encoding/json"

// ProgramDeclaration is the value of _meta[MetaKey] on a program-valued
// tool in tools/list (Part III §5): either Argument+Language for one
// Language or Languages for several.
type ProgramDeclaration struct {
	Argument  string           `json:"argument,omitempty"`
	Language  string           `json:"language,omitempty"`
	Languages []ProgramBinding `json:"languages,omitzero"`
}

// ProgramBinding maps one program-bearing argument to one Language.
type ProgramBinding struct {
	Argument string `json:"argument"`
	Language string `json:"language"`
}

// Bindings returns the declaration's argument-to-Language pairs in either
// form; the single form comes first when both are (oddly) present.
func (d ProgramDeclaration) Bindings() []ProgramBinding {
	var out []ProgramBinding
	if d.Argument != "" || d.Language != "" {
		out = append(out, ProgramBinding{d.Argument, d.Language})
	}
	return append(out, d.Languages...)
}

// ArgumentFor returns the argument the program of language travels in, or
// "" when the declaration binds no argument to language.
func (d ProgramDeclaration) ArgumentFor(language string) string {
	for _, b := range d.Bindings() {
		if b.Language == language {
			return b.Argument
		}
	}
	return ""
}

// DuplicateArguments returns argument names used more than once in
// Languages; Part III §5 requires them distinct, which JSON Schema cannot
// express for object items.
func (d ProgramDeclaration) DuplicateArguments() []string {
	seen := map[string]int{}
	var dup []string
	for _, b := range d.Languages {
		seen[b.Argument]++
		if seen[b.Argument] == 2 {
			dup = append(dup, b.Argument)
		}
	}
	return dup
}

// InitializeMeta is the value of _meta[MetaKey] on an initialize result
// (or server/discover) (Part III §3.2): at least one of Manifest and
// ManifestURI must be present.
type InitializeMeta struct {
	Manifest    *Manifest `json:"manifest,omitempty"`
	ManifestURI string    `json:"manifest_uri,omitempty"`
}

// ExtensionSettings is the settings object of the extension in the MCP
// extensions capability map (Part III §1.2). Empty means "supported, no
// settings"; Version is informative, the manifest is authoritative.
type ExtensionSettings struct {
	Version string `json:"version,omitempty"`
}

// Input schemas of the fixed access tools, as the binding defines them.
// The access-tool schemas are intentionally strict (Part III §7.1
// "Structural faults"), unlike loop-tool schemas (§4.6).
var (
	// ManifestInputSchema: "an object with no required members" (§3.1).
	ManifestInputSchema = json.RawMessage(`{"type":"object"}`)
	// GetGuideInputSchema is Part III §4.1 verbatim.
	GetGuideInputSchema = json.RawMessage(`{"type":"object","properties":{"language":{"type":"string"},"id":{"type":"string"},"topic":{"type":"string"}},"required":["language"]}`)
	// CatalogInputSchema is Part III §4.2 verbatim.
	CatalogInputSchema = json.RawMessage(`{"type":"object","properties":{"language":{"type":"string"},"verb":{"type":"string","enum":["list","get","changed_since"]},"kind":{"type":"string"},"tag":{"type":"string"},"q":{"type":"string"},"cursor":{"type":"string"},"limit":{"type":"integer","minimum":1},"id":{"type":"string"},"catalog_version":{"type":"string"}},"required":["language","verb"]}`)
)

// FixedToolInputSchema returns the binding-defined input schema of a
// fixed access tool.
func FixedToolInputSchema(tool string) (json.RawMessage, bool) {
	switch tool {
	case ToolManifest:
		return ManifestInputSchema, true
	case ToolGetGuide:
		return GetGuideInputSchema, true
	case ToolCatalog:
		return CatalogInputSchema, true
	}
	return nil, false
}
