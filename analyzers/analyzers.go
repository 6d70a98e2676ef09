// Package analyzers collects the pilotage-vet analyzers: go/analysis
// checks for MCP servers built with github.com/modelcontextprotocol/go-sdk
// or github.com/mark3labs/mcp-go that implement the Pilotage extension.
//
//   - metakey: shorthand ("pilotage") and legacy dotted
//     ("io.github.jafarsa0.pilotage") _meta keys and extension names
//     (Part III §1.1, §2), with a fix to the full key.
//   - strictschema: loop-tool input schemas that the SDK or a client
//     enforces before the Pilotage handler runs: inferred strict schemas,
//     "additionalProperties": false, value constraints on reserved members
//     and the program argument, and a required runnable on an execute
//     tool (Part III §4.6); and mcp-go's server.WithInputSchemaValidation
//     on a Pilotage server (Part III §6, §7.1).
//   - envelope: Pilotage tool handlers that return a Go error (other than
//     go-sdk's *jsonrpc.Error, the carrier channel), a result without
//     structuredContent, or that set IsError where go-sdk overwrites
//     structuredContent (Part III §6, §7).
//   - canonical: composite literals of pkg/types that contradict the
//     spec's constants (Part II §4, §5.7; Part III §7.2).
//
// Run them with cmd/pilotage-vet, standalone (pilotage-vet ./...) or as
// go vet -vettool=$(command -v pilotage-vet) ./...
package analyzers

import (
	"golang.org/x/tools/go/analysis"

	"github.com/pilotagekit/pilotagekit/analyzers/canonical"
	"github.com/pilotagekit/pilotagekit/analyzers/envelope"
	"github.com/pilotagekit/pilotagekit/analyzers/metakey"
	"github.com/pilotagekit/pilotagekit/analyzers/strictschema"
)

// All lists every pilotage-vet analyzer, in the order they are documented.
var All = []*analysis.Analyzer{
	metakey.Analyzer,
	strictschema.Analyzer,
	envelope.Analyzer,
	canonical.Analyzer,
}
