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

var styles = []string{"styles/rawgosdk"}

func TestStylesClean(t *testing.T) {
	for _, pkg := range styles {
		for _, a := range analyzers.All {
			t.Run(pkg+"/"+a.Name, func(t *testing.T) {
				analysistest.Run(t, analyzertest.Dir(t), a, pkg)
			})
		}
	}
}

// A twin is a style's clean server with one fault injected: the source
// edit, the analyzer that must catch it and the diagnostic it must give,
// which the test appends to the edited line as a `// want` comment.
type twin struct {
	style, fault string
	old, new     string
	analyzer     string
	want         string // one pattern, or several each in backquotes
}

var twins = []twin{
	{"rawgosdk", "closed schema", `schema["properties"] = props
	return schema
}

func runSchema`, `schema["properties"] = props
	schema["additionalProperties"] = false/*!*/
	return schema
}

func runSchema`, "strictschema", "`loop tool \"validate_workflow\" sets \"additionalProperties\": false on its input schema; Server.AddTool publishes it as is` `loop tool \"run_workflow\" sets \"additionalProperties\": false`"},
	{"rawgosdk", "enum on reserved member", `props["trace_level"] = map[string]any{"type": "string"}`, `props["trace_level"] = map[string]any{"type": "string", "enum": []string{"none", "full"}}`, "strictschema", `loop tool "run_workflow" constrains reserved member "trace_level" with enum, beyond its JSON type`},
	{"rawgosdk", "required program argument", `schema["properties"].(map[string]any)["program_ref"] = map[string]any{"type": "string"}`, `schema["properties"].(map[string]any)["program_ref"] = map[string]any{"type": "string"}
	schema["required"] = []string{"workflow"}`, "strictschema", `execute tool "run_workflow" marks "workflow" required`},
	{"rawgosdk", "Go error", `return requestError("not_found", "unknown run: it may have expired"), nil`, `return nil, errors.New("unknown run")`, "envelope", `handler of Pilotage tool "trace_run" returns a Go error; go-sdk's Server.AddTool sends it as a JSON-RPC error response with code 0`},
	{"rawgosdk", "no structuredContent", `return &mcp.CallToolResult{StructuredContent: map[string]any{"valid": true, "diagnostics": []any{}}}, nil`, `return &mcp.CallToolResult{}, nil`, "envelope", `handler of Pilotage tool "validate_workflow" returns a result without structuredContent`},
	{"rawgosdk", "shorthand _meta key", `run := &mcp.Tool{Name: "run_workflow", Meta: mcp.Meta{types.MetaKey: decl}}`, `run := &mcp.Tool{Name: "run_workflow", Meta: mcp.Meta{"pilotage": decl}}`, "metakey", `_meta key "pilotage" is a shorthand`},
}

// TestStyleTwins runs every twin: each must get its diagnostic, and only
// it, from its analyzer.
func TestStyleTwins(t *testing.T) {
	byName := map[string]*analysis.Analyzer{}
	for _, a := range analyzers.All {
		byName[a.Name] = a
	}
	for _, tw := range twins {
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
		// The want comment goes where the injected text marks it with
		// /*!*/, or at its end.
		want := " // want " + tw.want
		if !strings.HasPrefix(tw.want, "`") {
			want = " // want `" + tw.want + "`"
		}
		injected := tw.new + want
		if strings.Contains(tw.new, "/*!*/") {
			injected = strings.Replace(tw.new, "/*!*/", want, 1)
		}
		text = strings.Replace(text, tw.old, injected, 1)
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
