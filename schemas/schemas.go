// Package schemas embeds the JSON Schemas (draft 2020-12) generated from
// pkg/types: one file per Pilotage shape, one outputSchema union per tool
// (Part III §6), and a bundle with every definition under $defs.
//
// Every file is self-contained: its only $refs point at #/$defs inside the
// same file, so it compiles with a loader that refuses all external
// references. No object schema sets additionalProperties to false, because
// receivers ignore unknown members (Part II §1.2).
//
// Regenerate with `go generate ./schemas`; a test fails when the committed
// files differ from a fresh generation.
package schemas

import (
	"embed"
	"io/fs"
	"sort"
)

//go:generate go run ./internal/gen

//go:embed *.schema.json
var files embed.FS

// FS exposes the schema files; names are those returned by Names.
var FS fs.FS = files

// Base is the $id prefix of every file: a file's $id is Base + its name.
const Base = "https://pilotagekit.dev/schemas/"

// Single-shape files the linter needs by name.
const (
	Manifest      = "manifest.schema.json"
	LanguageEntry = "language-entry.schema.json"
	// CapabilityDeclaration is a Server-level or Language-level capability
	// declaration (Part II §4.2).
	CapabilityDeclaration = "capability-declaration.schema.json"
	ProgramDeclaration    = "program-declaration.schema.json"
	InitializeMeta        = "initialize-meta.schema.json"
	RequestError          = "request-error.schema.json"
	Diagnostic            = "diagnostic.schema.json"
	Outcome               = "outcome.schema.json"
	Trace                 = "trace.schema.json"
	Plan                  = "plan.schema.json"
	CatalogEntry          = "catalog-entry.schema.json"
	// Bundle holds every definition under $defs.
	Bundle = "pilotage.schema.json"
)

// Per-tool outputSchema unions (Part III §6): anyOf every success shape of
// the tool and the request-error shape.
const (
	OutputManifest = "output.pilotage_manifest.schema.json"
	OutputGetGuide = "output.pilotage_get_guide.schema.json"
	OutputCatalog  = "output.pilotage_catalog.schema.json"
	OutputValidate = "output.validate.schema.json"
	OutputExecute  = "output.execute.schema.json"
	OutputTrace    = "output.trace.schema.json"
)

// Names returns every file name, sorted.
func Names() []string {
	entries, _ := fs.ReadDir(files, ".")
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// Get returns the bytes of the named file.
func Get(name string) ([]byte, bool) {
	b, err := files.ReadFile(name)
	return b, err == nil
}

// ID returns the $id of the named file.
func ID(name string) string { return Base + name }

// OutputSchemaFor returns the union file for a tool: a fixed tool name
// (pilotage_manifest, pilotage_get_guide, pilotage_catalog) or a loop
// stage ("validate", "execute", "trace").
func OutputSchemaFor(toolOrStage string) (string, bool) {
	switch toolOrStage {
	case "pilotage_manifest":
		return OutputManifest, true
	case "pilotage_get_guide":
		return OutputGetGuide, true
	case "pilotage_catalog":
		return OutputCatalog, true
	case "validate":
		return OutputValidate, true
	case "execute":
		return OutputExecute, true
	case "trace":
		return OutputTrace, true
	}
	return "", false
}
