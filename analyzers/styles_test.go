package analyzers_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/pilotagekit/pilotagekit/analyzers"
	"github.com/pilotagekit/pilotagekit/analyzers/internal/analyzertest"
)

var styles = []string{"styles/rawgosdk", "styles/gosdkfor", "styles/mcpgolist", "styles/pkgvars", "styles/selfappend"}

// TestStylesClean: every style's server is correct, and no analyzer
// reports anything on it.
func TestStylesClean(t *testing.T) {
	for _, a := range analyzers.All {
		t.Run(a.Name, func(t *testing.T) {
			analysistest.Run(t, analyzertest.Dir(t), a, styles...)
		})
	}
}

// A twin is a style's clean server with one fault injected: the source
// edit, the analyzer that must catch it and the diagnostic it must give,
// which the test appends to the edited line as a `// want` comment.
type twin struct {
	style, fault string
	old, new     string
	analyzer     string
	want         string      // one pattern, or several each in backquotes
	more         [][2]string // further edits, old and new, without a want
}

var twins = []twin{
	{"rawgosdk", "closed schema", `schema["properties"] = props
	return schema
}

func runSchema`, `schema["properties"] = props
	schema["additionalProperties"] = false/*!*/
	return schema
}

func runSchema`, "strictschema", "`loop tool \"validate_workflow\" sets \"additionalProperties\": false on its input schema; Server.AddTool publishes it as is` `loop tool \"run_workflow\" sets \"additionalProperties\": false`", nil},
	{"rawgosdk", "enum on reserved member", `props["trace_level"] = map[string]any{"type": "string"}`, `props["trace_level"] = map[string]any{"type": "string", "enum": []string{"none", "full"}}`, "strictschema", `loop tool "run_workflow" constrains reserved member "trace_level" with enum, beyond its JSON type`, nil},
	{"rawgosdk", "required program argument", `schema["properties"].(map[string]any)["program_ref"] = map[string]any{"type": "string"}`, `schema["properties"].(map[string]any)["program_ref"] = map[string]any{"type": "string"}
	schema["required"] = []string{"workflow"}`, "strictschema", `execute tool "run_workflow" marks "workflow" required`, nil},
	{"rawgosdk", "Go error", `return requestError("not_found", "unknown run: it may have expired"), nil`, `return nil, errors.New("unknown run")`, "envelope", `handler of Pilotage tool "trace_run" returns a Go error; go-sdk's Server.AddTool sends it as a JSON-RPC error response with code 0`, nil},
	{"rawgosdk", "no structuredContent", `return &mcp.CallToolResult{StructuredContent: map[string]any{"valid": true, "diagnostics": []any{}}}, nil`, `return &mcp.CallToolResult{}, nil`, "envelope", `handler of Pilotage tool "validate_workflow" returns a result without structuredContent`, nil},
	{"rawgosdk", "WithInputSchemaValidation", "", "", "", "", nil}, // mcp-go only
	{"rawgosdk", "shorthand _meta key", `run := &mcp.Tool{Name: "run_workflow", Meta: mcp.Meta{types.MetaKey: decl}}`, `run := &mcp.Tool{Name: "run_workflow", Meta: mcp.Meta{"pilotage": decl}}`, "metakey", `_meta key "pilotage" is a shorthand`, nil},

	{"gosdkfor", "closed schema", `s, err := jsonschema.For[RunArgs](nil)`, `s, err := jsonschema.For[RunArgs](nil)`, "strictschema",
		`loop tool "run_workflow" sets "additionalProperties": false on its input schema \(jsonschema.For\[RunArgs\] closes every struct\); go-sdk's mcp.AddTool validates`,
		[][2]string{{"s.AdditionalProperties = nil\n", ""}}},
	{"gosdkfor", "enum on reserved member", `s.AdditionalProperties = nil`, `s.AdditionalProperties = nil
	s.Properties["trace_level"].Enum = []any{"none", "summary", "full"}`, "strictschema", `loop tool "run_workflow" constrains reserved member "trace_level" with enum, beyond its JSON type`, nil},
	{"gosdkfor", "required program argument", "Workflow   any    `json:\"workflow,omitempty\"`", "Workflow   any    `json:\"workflow\"`", "strictschema", `execute tool "run_workflow" marks "workflow" required`, nil},
	{"gosdkfor", "Go error", `return requestError("invalid_request", "unknown trace_level"), nil, nil`, `return nil, nil, errors.New("unknown trace_level")`, "envelope", `handler of Pilotage tool "run_workflow" returns a Go error; go-sdk's mcp.AddTool turns it into an isError result`, nil},
	{"gosdkfor", "no structuredContent", `return nil, map[string]any{"ok": true, "status": "success", "error": nil}, nil`, `return &mcp.CallToolResult{}, nil, nil`, "envelope", `handler of Pilotage tool "run_workflow" returns a result without structuredContent`, nil},
	{"gosdkfor", "shorthand _meta key", `var decl = mcp.Meta{types.MetaKey:`, `var decl = mcp.Meta{"pilotage":`, "metakey", `_meta key "pilotage" is a shorthand`, nil},

	{"mcpgolist", "closed schema", `mcp.WithString("mode")}`, `mcp.WithString("mode"), mcp.WithSchemaAdditionalProperties(false)}`, "strictschema",
		"`loop tool \"validate_workflow\" sets \"additionalProperties\": false on its input schema; mcp-go publishes it` `loop tool \"run_workflow\" sets \"additionalProperties\": false`", nil},
	{"mcpgolist", "enum on reserved member", `mcp.Description("none, summary or full"))`, `mcp.Description("none, summary or full"), mcp.Enum("none", "summary", "full"))`, "strictschema", `loop tool "run_workflow" constrains reserved member "trace_level" with enum, beyond its JSON type`, nil},
	{"mcpgolist", "required program argument", `mcp.WithAny("workflow")`, `mcp.WithAny("workflow", mcp.Required())`, "strictschema", `execute tool "run_workflow" marks "workflow" required`, nil},
	{"mcpgolist", "Go error", `return requestError("internal", "cancelled"), nil`, `return nil, errors.New("cancelled")`, "envelope", `handler of Pilotage tool "run_workflow" returns a Go error; mcp-go sends it as JSON-RPC error -32603`, nil},
	{"mcpgolist", "no structuredContent", `return mcp.NewToolResultStructuredOnly(map[string]any{"valid": true, "diagnostics": []any{}}), nil`, `return mcp.NewToolResultText("valid"), nil`, "envelope", `handler of Pilotage tool "validate_workflow" returns mcp.NewToolResultText, which has no structuredContent`, nil},
	{"mcpgolist", "WithInputSchemaValidation", `server.NewMCPServer("workflows", "1.0.0")`, `server.NewMCPServer("workflows", "1.0.0", server.WithInputSchemaValidation())`, "strictschema", `server.WithInputSchemaValidation makes mcp-go answer arguments that fail an input schema with an isError result that has no structuredContent.*Pilotage tools "pilotage_manifest", "run_workflow", "validate_workflow"`, nil},
	{"mcpgolist", "shorthand _meta key", `run.Meta = mcp.NewMetaFromMap(map[string]any{types.MetaKey: decl})`, `run.Meta = mcp.NewMetaFromMap(map[string]any{"pilotage": decl})`, "metakey", `_meta key "pilotage" is a shorthand`, nil},

	{"pkgvars", "closed schema", `Type: "object",
	Properties:`, `Type:                 "object",
	AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},/*!*/
	Properties:`, "strictschema", `loop tool "run_workflow" sets "additionalProperties": false on its input schema; Server.AddTool publishes it`, nil},
	{"pkgvars", "enum on reserved member", `runSchema.Properties["mode"] = &jsonschema.Schema{Type: "string"}`, `runSchema.Properties["mode"] = &jsonschema.Schema{Type: "string"}
	runSchema.Properties["trace_level"].Enum = []any{"none", "summary", "full"}`, "strictschema", `loop tool "run_workflow" constrains reserved member "trace_level" with enum, beyond its JSON type`, nil},
	{"pkgvars", "required program argument", `runSchema.Properties["mode"] = &jsonschema.Schema{Type: "string"}`, `runSchema.Properties["mode"] = &jsonschema.Schema{Type: "string"}
	runSchema.Required = []string{"workflow"}`, "strictschema", `execute tool "run_workflow" marks "workflow" required`, nil},
	{"pkgvars", "Go error", `return &mcp.CallToolResult{StructuredContent: map[string]any{"ok": true, "status": "success", "error": nil}}, nil`, `return nil, errors.New("engine down")`, "envelope", `handler of Pilotage tool "run_workflow" returns a Go error; go-sdk's Server.AddTool sends it as a JSON-RPC error response with code 0`, nil},
	{"pkgvars", "no structuredContent", `return &mcp.CallToolResult{StructuredContent: map[string]any{"pilotage": "1.1"}}, nil`, `return nil, nil`, "envelope", `handler of Pilotage tool "pilotage_manifest" returns a nil result`, nil},
	{"pkgvars", "shorthand _meta key", `Meta: mcp.Meta{types.MetaKey: decl}`, `Meta: mcp.Meta{"pilotage": decl}`, "metakey", `_meta key "pilotage" is a shorthand`, nil},
}

// TestStyleTwins runs every twin: each must get its diagnostic, and only
// it, from its analyzer.
func TestStyleTwins(t *testing.T) {
	byName := map[string]*analysis.Analyzer{}
	for _, a := range analyzers.All {
		byName[a.Name] = a
	}
	for _, tw := range twins {
		if tw.analyzer == "" {
			continue // the fault does not exist in this style
		}
		t.Run(tw.style+"/"+tw.fault, func(t *testing.T) {
			dir := twinTree(t, tw)
			analysistest.Run(t, dir, byName[tw.analyzer], "styles/"+tw.style)
		})
	}
}

// twinTree copies the testdata tree to a temporary directory and injects
// tw's fault into its style's server.
func twinTree(t *testing.T, tw twin) string {
	t.Helper()
	src := analyzertest.Dir(t)
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(dst, "src", "styles", tw.style)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		if strings.Count(text, tw.old) != 1 {
			continue
		}
		// The want comment goes at the end of the line the injected text
		// marks with /*!*/, or of the line where it ends.
		want := " // want " + tw.want
		if !strings.HasPrefix(tw.want, "`") {
			want = " // want `" + tw.want + "`"
		}
		injected := tw.new + "/*!*/"
		if strings.Contains(tw.new, "/*!*/") {
			injected = tw.new
		}
		text = strings.Replace(text, tw.old, injected, 1)
		at := strings.Index(text, "/*!*/")
		text = text[:at] + text[at+len("/*!*/"):]
		eol := at + strings.IndexByte(text[at:], '\n')
		text = text[:eol] + want + text[eol:]
		for _, m := range tw.more {
			if !strings.Contains(text, m[0]) {
				t.Fatalf("twin %s/%s: %q is not in %s", tw.style, tw.fault, m[0], path)
			}
			text = strings.Replace(text, m[0], m[1], 1)
		}
		if strings.Contains(tw.new, "errors.New") && !strings.Contains(text, `"errors"`) {
			text = strings.Replace(text, "import (\n", "import (\n\t\"errors\"\n", 1)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return dst
	}
	t.Fatalf("twin %s/%s: the text to replace is not in exactly one file of %s", tw.style, tw.fault, dir)
	return ""
}
