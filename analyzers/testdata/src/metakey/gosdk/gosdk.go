package gosdk

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

var decl = map[string]any{"argument": "workflow", "language": "workflow/v1"}

var shorthand = &mcp.Tool{
	Name: "run_workflow",
	Meta: mcp.Meta{
		"pilotage": decl, // want `_meta key "pilotage" is a shorthand that receivers must ignore; Pilotage metadata goes under "io.github.jafarsa0/pilotage" \(Part III §2\)`
	},
}

var dotted = &mcp.Tool{
	Name: "validate_workflow",
	Meta: mcp.Meta{
		"io.github.jafarsa0.pilotage": decl, // want `key "io.github.jafarsa0.pilotage" is the legacy dotted identifier`
	},
}

const short = "pilotage"

// A named constant is resolved to its value, whatever it is called.
var viaConst = mcp.Meta{short: decl} // want `_meta key "pilotage" is a shorthand`

var viaTypesConst = mcp.Meta{types.LegacyExtensionID: decl} // want `legacy dotted identifier`

var otherVendorKey = mcp.Meta{"io.github.jafarsa0/pilotage/v1": decl} // want `_meta key "io.github.jafarsa0/pilotage/v1" is not defined: the binding defines exactly one Pilotage _meta key`

func index(res *mcp.CallToolResult) {
	res.Meta["pilotage"] = decl // want `_meta key "pilotage" is a shorthand`
	res.Meta = map[string]any{
		"pilotage": decl, // want `_meta key "pilotage" is a shorthand`
	}
}

func extensions() {
	caps := &mcp.ServerCapabilities{}
	caps.AddExtension("io.github.jafarsa0.pilotage", nil) // want `extension name "io.github.jafarsa0.pilotage" is the legacy dotted identifier, which is not wire-normative; use "io.github.jafarsa0/pilotage" \(Part III §1.1\)`
	caps.AddExtension("pilotage", nil)                    // want `extension name "pilotage" is not the Pilotage extension identifier`
	_ = &mcp.ServerCapabilities{Extensions: map[string]any{
		"pilotage": map[string]any{}, // want `extension name "pilotage" is not the Pilotage extension identifier`
	}}
	var client mcp.ClientCapabilities
	client.AddExtension(types.LegacyExtensionID, nil) // want `legacy dotted identifier`
}

// Raw JSON-shaped maps are checked by where the map sits.
var rawTool = map[string]any{
	"name": "run_workflow",
	"_meta": map[string]any{
		"pilotage": decl, // want `_meta key "pilotage" is a shorthand`
	},
}

var rawCaps = map[string]any{
	"extensions": map[string]any{"pilotage": map[string]any{}}, // want `extension name "pilotage"`
}

// The manifest's own "pilotage" member is the wire version, not a _meta key.
var manifest = map[string]any{"pilotage": "1.1", "languages": []any{}}

// The dotted form is wrong as a key wherever it appears.
var anyMap = map[string]string{"io.github.jafarsa0.pilotage": "x"} // want `legacy dotted identifier`
