// Command gogen writes the Go corpus: loop-tool inputSchemas as the Go
// SDK's schema inference (google/jsonschema-go's For, which
// modelcontextprotocol/go-sdk's AddTool uses) and mcp-go's builders emit
// them, the way Go Pilotage servers declare their tools.
//
//	go run . ../gosdk ../mcpgo
//
// It is its own module so the linter's go.mod does not carry mcp-go.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
)

// The request structs a Go server declares, field tags as it writes them.
type validateArgs struct {
	Flow    map[string]any `json:"flow" jsonschema:"the buildingflow/1 program"`
	Context map[string]any `json:"context,omitempty"`
}

type executeArgs struct {
	Flow                   map[string]any `json:"flow,omitempty"`
	ProgramRef             string         `json:"program_ref,omitempty"`
	Input                  map[string]any `json:"input,omitempty"`
	Context                map[string]any `json:"context,omitempty"`
	TraceLevel             *string        `json:"trace_level,omitempty" jsonschema:"none, summary or full"`
	ExpectedCatalogVersion string         `json:"expected_catalog_version,omitempty"`
	IdempotencyKey         *string        `json:"idempotency_key,omitempty"`
	TestRun                *bool          `json:"test_run,omitempty"`
	Mode                   string         `json:"mode,omitempty"`
	Store                  *bool          `json:"store,omitempty"`
}

type traceArgs struct {
	RunID      string `json:"run_id"`
	TraceLevel string `json:"trace_level,omitempty"`
}

// A program_ref marked required by leaving omitempty off.
type executeRefRequired struct {
	Flow       map[string]any `json:"flow,omitempty"`
	ProgramRef string         `json:"program_ref"`
}

type corpusCase struct {
	Generator   string   `json:"generator"`
	Source      string   `json:"source"`
	Tool        string   `json:"tool"`
	Expect      []string `json:"expect"`
	InputSchema any      `json:"inputSchema"`
}

func version(path string) string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == path {
				return path + " " + d.Version
			}
		}
	}
	return path
}

func write(dir, name string, c corpusCase) {
	if c.Expect == nil {
		c.Expect = []string{}
	}
	b, err := json.MarshalIndent(c, "", "  ")
	check(err)
	check(os.WriteFile(filepath.Join(dir, name+".json"), append(b, '\n'), 0o644))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// open is what a server author does after For to keep a loop tool open
// (Part III §4.6): drop the additionalProperties false For sets on structs.
func open(s *jsonschema.Schema) *jsonschema.Schema {
	s.AdditionalProperties = nil
	return s
}

func forT[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	check(err)
	return s
}

func main() {
	gosdk, mcpgo := os.Args[1], os.Args[2]

	gen := version("github.com/google/jsonschema-go")
	sdk := func(name, tool, src string, expect []string, s *jsonschema.Schema) {
		write(gosdk, name, corpusCase{gen, src, tool, expect, s})
	}
	sdk("good-validate-open", "validate_flow", "open(jsonschema.For[validateArgs](nil))", nil, open(forT[validateArgs]()))
	sdk("good-execute-open", "run_flow", "open(jsonschema.For[executeArgs](nil)) with pointer fields", nil, open(forT[executeArgs]()))
	sdk("good-trace-open", "trace_run", "open(jsonschema.For[traceArgs](nil))", nil, open(forT[traceArgs]()))
	sdk("bad-validate-for", "validate_flow", "jsonschema.For[validateArgs](nil)", []string{"toolschema-loop-schema-closed"}, forT[validateArgs]())
	sdk("bad-execute-for", "run_flow", "jsonschema.For[executeArgs](nil)", []string{"toolschema-loop-schema-closed"}, forT[executeArgs]())
	sdk("bad-trace-for", "trace_run", "jsonschema.For[traceArgs](nil)", []string{"toolschema-loop-schema-closed"}, forT[traceArgs]())
	ref := open(forT[executeRefRequired]())
	sdk("bad-execute-ref-required", "run_flow", "open(jsonschema.For[executeRefRequired](nil)), program_ref without omitempty", []string{"toolschema-execute-runnable-required", "toolschema-reserved-missing"}, ref)
	enum := open(forT[executeArgs]())
	enum.Properties["trace_level"].Enum = []any{"none", "summary", "full"}
	sdk("bad-execute-enum", "run_flow", "open(jsonschema.For[executeArgs](nil)) with an enum on trace_level", []string{"toolschema-reserved-constrained"}, enum)

	gen = version("github.com/mark3labs/mcp-go")
	mg := func(name, tool, src string, expect []string, t mcp.Tool) {
		write(mcpgo, name, corpusCase{gen, src, tool, expect, t.InputSchema})
	}
	mg("good-validate", "validate_flow", `mcp.NewTool("validate_flow", mcp.WithObject("flow", mcp.Required()), mcp.WithObject("context"))`, nil,
		mcp.NewTool("validate_flow", mcp.WithObject("flow", mcp.Required(), mcp.Description("the buildingflow/1 program")), mcp.WithObject("context")))
	execute := func(traceLevel ...mcp.PropertyOption) []mcp.ToolOption {
		return []mcp.ToolOption{
			mcp.WithObject("flow"), mcp.WithString("program_ref"), mcp.WithObject("input"), mcp.WithObject("context"),
			mcp.WithString("trace_level", traceLevel...),
			mcp.WithString("expected_catalog_version"), mcp.WithString("idempotency_key"), mcp.WithBoolean("test_run"),
			mcp.WithString("mode", mcp.Title("Mode")), mcp.WithBoolean("store"),
		}
	}
	mg("good-execute", "run_flow", "mcp.NewTool(\"run_flow\", mcp.WithObject(\"flow\"), mcp.WithString(\"program_ref\"), ...)", nil,
		mcp.NewTool("run_flow", execute(mcp.Description("none, summary or full"), mcp.DefaultString("summary"))...))
	mg("good-trace", "trace_run", `mcp.NewTool("trace_run", mcp.WithString("run_id", mcp.Required()), mcp.WithString("trace_level"))`, nil,
		mcp.NewTool("trace_run", mcp.WithString("run_id", mcp.Required()), mcp.WithString("trace_level")))
	mg("bad-execute-enum", "run_flow", `mcp.WithString("trace_level", mcp.Enum("none", "summary", "full"))`, []string{"toolschema-reserved-constrained"},
		mcp.NewTool("run_flow", execute(mcp.Enum("none", "summary", "full"))...))
	mg("bad-trace-pattern", "trace_run", `mcp.WithString("run_id", mcp.Required(), mcp.Pattern("^run_[0-9]+$"))`, []string{"toolschema-reserved-constrained"},
		mcp.NewTool("trace_run", mcp.WithString("run_id", mcp.Required(), mcp.Pattern("^run_[0-9]+$"))))
	mg("bad-validate-closed", "validate_flow", `mcp.WithSchemaAdditionalProperties(false)`, []string{"toolschema-loop-schema-closed"},
		mcp.NewTool("validate_flow", mcp.WithObject("flow", mcp.Required()), mcp.WithObject("context"), mcp.WithSchemaAdditionalProperties(false)))
}
